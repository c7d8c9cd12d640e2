import '../../lib/test/setup';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CreateBypassCodesResponse } from '@mfa-portal/shared';
import { findDialog } from '../../lib/test/dialogs';
import { apiError, json, type FakeApi } from '../../lib/test/fake-api';
import { renderPortal } from '../../test/render-portal';
import { phone, token } from '../../test/fixtures';
import { adminProfile, BOB_PATH, noProgress, userDetail, verifiedAtNoon, verifiedNone } from './test-fixtures';

beforeAll(async () => {
  await import('./AdminArea');
});
// The call's reason and ticket are kept in this tab's storage: each test starts a new call.
afterEach(() => sessionStorage.clear());

const withBob =
  (detail = userDetail()) =>
  (a: FakeApi) =>
    a.on('GET', BOB_PATH, () => json(detail)).on('GET', `${BOB_PATH}/lost-device`, () => json(noProgress));

async function openBob(detail = userDetail()) {
  const rendered = await renderPortal({ path: '/admin/users/bob@example.com', profile: adminProfile('helpdesk'), api: withBob(detail) });
  await screen.findByRole('heading', { level: 1, name: 'Bob Brown' });
  return rendered;
}

const justify = async (user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement) => {
  await user.type(within(dialog).getByLabelText('Reason'), 'Caller verified with his token');
  await user.type(within(dialog).getByLabelText('Ticket reference'), 'INC-42');
};

const created: CreateBypassCodesResponse = {
  codes: [{ id: '0b6f7c1e-2222-4a2b-8c3d-000000000003', code: '123 456 789', expiresAt: '2025-05-03T12:00:00.000Z', usesLeft: 1 }],
  replaced: 0,
};

describe('user page: verify identity', () => {
  it('checks a code from the chosen device: a wrong one fails once, a right one folds the forms into one line and unlocks the actions', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      path: '/admin/users/bob@example.com',
      profile: adminProfile('helpdesk'),
      api: withBob(userDetail({ verification: verifiedNone })),
    });
    await screen.findByRole('heading', { level: 1, name: 'Bob Brown' });
    api.on(
      'POST',
      `${BOB_PATH}/verify-identity`,
      () => json({ verified: false, reason: 'mfa.code_invalid', deviceId: token.id, checkedAt: '2025-05-01T12:00:00.000Z' }),
      () => {
        api.on('GET', BOB_PATH, () => json(userDetail({ verification: verifiedAtNoon('passcode', 'INC-42') })));
        return json({ verified: true, reason: null, deviceId: token.id, checkedAt: '2025-05-01T12:00:00.000Z' });
      },
    );
    const region = screen.getByRole('region', { name: 'Verify the caller' });
    expect(screen.getByRole('button', { name: 'Issue bypass codes' })).toBeDisabled();
    await user.type(within(region).getByLabelText('Ticket reference'), 'INC-42');
    await user.type(within(region).getByLabelText('Reason'), 'Caller verified with his token');
    await user.selectOptions(within(region).getByLabelText('Device they read the code from'), token.id);
    await user.type(within(region).getByLabelText('Code they read out'), '000000{Enter}');
    expect(await within(region).findByText('Not verified')).toBeInTheDocument();
    expect(region).toHaveTextContent('That code is not correct.');
    // Said once: one failure, nothing else claims a result.
    expect(screen.getAllByText('Not verified')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Issue bypass codes' })).toBeDisabled();

    await user.type(within(region).getByLabelText('Code they read out'), '123456{Enter}');
    const summary = await within(region).findByText(/^Verified by code at 12:00 PM, until 12:15 PM \(ticket INC-42\)\.$/);
    // One live region says it, once; the forms fold away.
    expect(summary.closest('[role="status"]')).not.toBeNull();
    expect(screen.getAllByText(/Verified by code/)).toHaveLength(1);
    expect(screen.queryByText('Not verified')).not.toBeInTheDocument();
    expect(within(region).queryByLabelText('Code they read out')).not.toBeInTheDocument();
    // The actions unlock in place and take the focus.
    expect(screen.getByRole('heading', { level: 2, name: 'Devices and codes' })).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Issue bypass codes' })).toBeEnabled();
    expect(api.callsTo('POST', `${BOB_PATH}/verify-identity`).map((c) => c.body)).toEqual([
      { deviceId: token.id, code: '000000', ticket: 'INC-42' },
      { deviceId: token.id, code: '123456', ticket: 'INC-42' },
    ]);

    // "Check again" opens the forms again, with the call as typed.
    await user.click(within(region).getByRole('button', { name: 'Check again' }));
    expect(within(region).getByLabelText('Ticket reference')).toHaveValue('INC-42');
    expect(within(region).getByLabelText('Code they read out')).toBeInTheDocument();
    // A whole call's worth of typing: more than the default 5 s on a busy machine.
  }, 20_000);

  it('names each device once in the choice: its serial is added unless its name already says it (Duo names tokens by serial)', async () => {
    const duoToken = { ...token, id: 'duo-token', name: 'Duo D100 (D100-0042)', serial: 'D100-0042' };
    await openBob(userDetail({ verification: verifiedNone }, { devices: [token, duoToken] }));
    const select = within(screen.getByRole('region', { name: 'Verify the caller' })).getByLabelText('Device they read the code from');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([`Key ring token (${token.serial})`, 'Duo D100 (D100-0042)']);
  });

  it('lists only devices that show a passcode, and says so when none does', async () => {
    await openBob(userDetail({ verification: verifiedNone }, { devices: [{ ...phone, capabilities: ['push'] }] }));
    expect(screen.getByRole('region', { name: 'Verify the caller' })).toHaveTextContent('No device can give a code');
  });

  it('refuses a badly formed ticket before checking anything', async () => {
    const user = userEvent.setup();
    const { api } = await openBob(userDetail({ verification: verifiedNone }));
    const region = screen.getByRole('region', { name: 'Verify the caller' });
    await user.type(within(region).getByLabelText('Ticket reference'), 'not a ticket!');
    await user.type(within(region).getByLabelText('Code they read out'), '123456{Enter}');
    expect(await within(region).findByText(/A ticket reference is letters and digits/)).toBeInTheDocument();
    expect(api.callsTo('POST', `${BOB_PATH}/verify-identity`)).toHaveLength(0);
  });
});

describe('user page: bypass codes', () => {
  it('refuses more than 7 days and a missing reason or ticket before asking the server', async () => {
    const user = userEvent.setup();
    const { api } = await openBob();
    await user.click(screen.getByRole('button', { name: 'Issue bypass codes' }));
    const dialog = await findDialog('Issue bypass codes for bob@example.com');
    const amount = within(dialog).getByLabelText('Number of hours or days the codes stay valid');
    await user.clear(amount);
    await user.type(amount, '8');
    await user.click(within(dialog).getByRole('button', { name: 'Issue the codes' }));
    expect(
      await within(dialog).findByText('Bypass codes can stay valid for at most 7 days. Please choose a shorter time.'),
    ).toBeInTheDocument();
    // Each field's message renders on its own tick: wait for each rather than read them at once.
    expect(await within(dialog).findByText('Please say why you are doing this.')).toBeInTheDocument();
    expect(await within(dialog).findByText('Please enter the ticket reference.')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Ticket reference'), 'not a ticket!');
    expect(await within(dialog).findByText(/A ticket reference is letters and digits/)).toBeInTheDocument();
    expect(api.callsTo('POST', `${BOB_PATH}/bypass-codes`)).toHaveLength(0);
  });

  it('issues codes with reason and ticket and shows them once, with copy, download and print', async () => {
    const user = userEvent.setup();
    const { api } = await openBob();
    api.on('POST', `${BOB_PATH}/bypass-codes`, () => json(created, 201));
    await user.click(screen.getByRole('button', { name: 'Issue bypass codes' }));
    const dialog = await findDialog('Issue bypass codes for bob@example.com');
    await justify(user, dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Issue the codes' }));
    const panel = await screen.findByRole('region', { name: 'New bypass code for bob@example.com' });
    expect(within(panel).getByRole('heading', { name: 'New bypass code for bob@example.com' })).toHaveFocus();
    expect(panel).toHaveTextContent('123 456 789');
    expect(panel).toHaveTextContent('Give them to the user now');
    for (const name of ['Copy the codes', 'Download as a text file', 'Print'])
      expect(within(panel).getByRole('button', { name })).toBeInTheDocument();
    expect(api.callsTo('POST', `${BOB_PATH}/bypass-codes`)[0]?.body).toEqual({
      count: 1,
      validitySeconds: 86_400,
      reuseCount: 1,
      replaceExisting: false,
      reason: 'Caller verified with his token',
      ticket: 'INC-42',
    });
    await user.click(within(panel).getByRole('button', { name: 'I have passed them on' }));
    expect(screen.queryByText('123 456 789')).not.toBeInTheDocument();
    // The next action starts with the same reason and ticket.
    await user.click(screen.getByRole('button', { name: 'Send an enrolment link' }));
    const next = await findDialog('Enrolment link for bob@example.com');
    expect(within(next).getByLabelText('Ticket reference')).toHaveValue('INC-42');
  });

  it('shows the translated refusal of the server', async () => {
    const user = userEvent.setup();
    const { api } = await openBob();
    api.on('POST', `${BOB_PATH}/bypass-codes`, () => apiError(403, 'auth.forbidden', { reason: 'protected_account' }));
    await user.click(screen.getByRole('button', { name: 'Issue bypass codes' }));
    const dialog = await findDialog('Issue bypass codes for bob@example.com');
    await justify(user, dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Issue the codes' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('No codes were issued');
    expect(alert).toHaveTextContent('This account is protected');
  });

  it('says, in the policy’s own words, that the person’s factor policy allows no bypass codes', async () => {
    const user = userEvent.setup();
    const { api } = await openBob();
    const reason = 'The policy of Contractors allows adding only: security keys.';
    api.on('POST', `${BOB_PATH}/bypass-codes`, () => apiError(403, 'factor_policy.kind_not_allowed', { kind: 'bypass_codes', reason }));
    await user.click(screen.getByRole('button', { name: 'Issue bypass codes' }));
    const dialog = await findDialog('Issue bypass codes for bob@example.com');
    await justify(user, dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Issue the codes' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(`This person’s factor policy does not allow it. ${reason}`);
    expect(alert).not.toHaveTextContent('let you');
  });
});

describe('user page: devices and account', () => {
  it('removes a device after confirmation, asking to acknowledge when the server says it is the last one', async () => {
    const user = userEvent.setup();
    const { api } = await openBob();
    api.on(
      'DELETE',
      `${BOB_PATH}/devices/${phone.id}`,
      () => apiError(409, 'device.last_device_confirmation_required'),
      () => json({ device: phone }),
    );
    await user.click(screen.getByRole('button', { name: "Remove “Bob's phone”" }));
    const dialog = await findDialog("Remove “Bob's phone”?");
    await justify(user, dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Remove the device' }));
    expect(await within(dialog).findByText('This is their only device')).toBeInTheDocument();
    const submit = within(dialog).getByRole('button', { name: 'Remove the device' });
    expect(submit).toBeDisabled();
    await user.click(within(dialog).getByRole('checkbox', { name: 'I understand that they will have no device left' }));
    await user.click(submit);
    expect(await screen.findByText("“Bob's phone” has been removed from bob@example.com's account.")).toBeInTheDocument();
    expect(api.callsTo('DELETE', `${BOB_PATH}/devices/${phone.id}`).map((c) => c.body)).toEqual([
      { confirmLastDevice: false, reason: 'Caller verified with his token', ticket: 'INC-42' },
      { confirmLastDevice: true, reason: 'Caller verified with his token', ticket: 'INC-42' },
    ]);
  });

  it('resyncs a hardware token with three codes', async () => {
    const user = userEvent.setup();
    const { api } = await openBob();
    api.on('POST', `${BOB_PATH}/devices/${token.id}/resync`, () => json({ device: token }));
    await user.click(screen.getByRole('button', { name: 'Resync “Key ring token”' }));
    const dialog = await findDialog('Resync “Key ring token”');
    await user.type(within(dialog).getByLabelText('First code'), '111111');
    await user.type(within(dialog).getByLabelText('Second code'), '222222');
    await user.type(within(dialog).getByLabelText('Third code'), '333333');
    await justify(user, dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Resync the token' }));
    expect(await screen.findByText('“Key ring token” is back in step.')).toBeInTheDocument();
    expect(api.callsTo('POST', `${BOB_PATH}/devices/${token.id}/resync`)[0]?.body).toEqual({
      codes: ['111111', '222222', '333333'],
      reason: 'Caller verified with his token',
      ticket: 'INC-42',
    });
  });

  it('unlocks a locked-out user and returns the enrolment link to pass on', async () => {
    const user = userEvent.setup();
    const { api } = await openBob(userDetail({}, { status: 'locked_out', statusReason: 'Too many failed attempts' }));
    api
      .on('POST', `${BOB_PATH}/unlock`, () => json({ status: 'active', statusReason: null }))
      .on('POST', `${BOB_PATH}/activation`, () => json({ activationUrl: 'https://portal.example.com/', emailSent: false }));
    await user.click(screen.getByRole('button', { name: 'Unlock' }));
    const dialog = await findDialog('Unlock bob@example.com?');
    expect(dialog).toHaveTextContent('They are locked out (Too many failed attempts).');
    await justify(user, dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByText('bob@example.com is unlocked.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Send an enrolment link' }));
    const activation = await findDialog('Enrolment link for bob@example.com');
    await user.click(within(activation).getByRole('button', { name: 'Get the link' }));
    const result = await screen.findByText('Give bob@example.com this address: they sign in there and add a device.');
    expect(result.closest('[role="status"]')).toHaveTextContent('https://portal.example.com/');
    expect(api.callsTo('POST', `${BOB_PATH}/activation`)[0]?.body).toEqual({ reason: 'Caller verified with his token', ticket: 'INC-42' });
  });
});
