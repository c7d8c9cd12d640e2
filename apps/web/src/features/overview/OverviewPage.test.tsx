import '../../lib/test/setup';
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Device } from '@mfa-portal/shared';
import { findDialog, queryDialog } from '../../lib/test/dialogs';
import { apiError, defaultMethodOf, json } from '../../lib/test/fake-api';
import { renderPortal } from '../../test/render-portal';
import { phone, profile, token } from '../../test/fixtures';

const authenticator: Device = {
  id: 'd3',
  kind: 'authenticator',
  name: 'Work phone app',
  capabilities: ['passcode'],
  phoneNumber: null,
  platform: null,
  serial: null,
  tokenType: null,
  createdAt: '2025-04-01T10:00:00.000Z',
  lastUsedAt: null,
};

async function devicesRegion() {
  return screen.findByRole('region', { name: 'Your devices' });
}

describe('overview', () => {
  it('greets the user, shows the status and every device with its facts and actions, without calling the API again', async () => {
    const { api } = await renderPortal();
    expect(await screen.findByRole('heading', { level: 1, name: 'Hello, Bob' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Your multi-factor status' })).toHaveTextContent('Active');
    const devices = await devicesRegion();
    const iphone = within(devices).getByRole('article', { name: "Bob's phone" });
    expect(iphone).toHaveTextContent('Push, Passcode');
    expect(within(iphone).getByRole('button', { name: "Rename “Bob's phone”" })).toBeInTheDocument();
    expect(within(iphone).getByRole('button', { name: "Check it works: “Bob's phone”" })).toBeInTheDocument();
    expect(within(iphone).queryByRole('button', { name: /Resync/ })).not.toBeInTheDocument();
    const hardware = within(devices).getByRole('article', { name: 'Key ring token' });
    expect(within(hardware).getByRole('button', { name: 'Resync “Key ring token”' })).toBeInTheDocument();
    // A token's name can be changed when the MFA service keeps one (the builtin provider does).
    expect(await within(hardware).findByRole('button', { name: 'Rename “Key ring token”' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Your backup plan' })).toHaveTextContent('You have 2 devices');
    expect(screen.getByRole('region', { name: 'Bypass codes' })).toHaveTextContent('You have no active bypass codes.');
    expect(await screen.findByRole('region', { name: 'Default sign-in method' })).toHaveTextContent(
      "Offered first: Approve a push on “Bob's phone”",
    );
    // The profile the shell loaded is the starting point: the devices are not asked again; the MFA
    // service's capabilities are asked once (whether a token can be renamed depends on them), the
    // default sign-in method once, the factor policy once (a device it no longer allows says so), and
    // once whether an enrolment campaign asks anything of them (its banner).
    expect(api.calls.map((c) => `${c.method} ${c.path}`).sort()).toEqual([
      'GET /account/getuserinfo',
      'GET /api/me/campaign',
      'GET /api/me/capabilities',
      'GET /api/me/default-method',
      'GET /api/me/factor-policy',
    ]);
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');
  });

  it('warns when there is only one device and suggests a second one, with the advice Add a device gives, in its order', async () => {
    await renderPortal({ profile: profile({ devices: [phone] }) });
    const readiness = await screen.findByRole('region', { name: 'Your backup plan' });
    expect(readiness).toHaveTextContent('You have only one device');
    expect(readiness).toHaveTextContent("If you lose “Bob's phone” or it stops working, you will not be able to sign in.");
    expect(await within(readiness).findByRole('link', { name: 'Add an authenticator app' })).toHaveAttribute(
      'href',
      '/devices/add/authenticator',
    );
    expect(readiness).toHaveTextContent('We recommend a passkey or security key: it cannot be tricked by a fake website.');
    expect(
      within(readiness)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Add a passkey or security key', 'Set up Portal Authenticator', 'Add an authenticator app', 'Add a hardware token']);
    expect(within(readiness).queryByRole('link', { name: 'Add a phone' })).not.toBeInTheDocument();
  });

  it('on Duo: offers no rename for a hardware token (Duo keeps no name for it), but does for a phone', async () => {
    await renderPortal({ profile: profile({ provider: 'duo', devices: [token] }) });
    const hardware = within(await devicesRegion()).getByRole('article', { name: 'Key ring token' });
    // The capabilities have arrived once the backup advice names the kinds Duo takes.
    const readiness = screen.getByRole('region', { name: 'Your backup plan' });
    expect(await within(readiness).findByRole('link', { name: 'Add a phone' })).toBeInTheDocument();
    expect(within(hardware).getByRole('button', { name: 'Resync “Key ring token”' })).toBeInTheDocument();
    expect(within(hardware).getByRole('button', { name: 'Remove “Key ring token”' })).toBeInTheDocument();
    expect(within(hardware).queryByRole('button', { name: /^Rename/ })).not.toBeInTheDocument();
  });

  it('on Duo: a phone can still be renamed', async () => {
    await renderPortal({ profile: profile({ provider: 'duo', devices: [phone] }) });
    const iphone = within(await devicesRegion()).getByRole('article', { name: "Bob's phone" });
    expect(within(iphone).getByRole('button', { name: "Rename “Bob's phone”" })).toBeInTheDocument();
  });

  it('on Duo: suggests a phone first as the backup, then a hardware token, not an authenticator app', async () => {
    await renderPortal({ profile: profile({ provider: 'duo', devices: [phone] }) });
    const readiness = await screen.findByRole('region', { name: 'Your backup plan' });
    expect(await within(readiness).findByRole('link', { name: 'Add a phone' })).toHaveAttribute('href', '/devices/add/phone');
    expect(
      within(readiness)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Add a phone', 'Add a hardware token', 'Add a passkey or security key']);
    expect(readiness).toHaveTextContent('We recommend your phone');
    expect(readiness).not.toHaveTextContent('authenticator app');
  });

  it('tells a person with no device they are not protected yet, and what to add first; no backup plan, no default', async () => {
    const { api } = await renderPortal({ profile: profile({ devices: [] }) });
    const status = screen.getByRole('region', { name: 'Your multi-factor status' });
    expect(status).toHaveTextContent('Not protected yet');
    expect(status).toHaveTextContent('Add your first device.');
    expect(status).not.toHaveTextContent('Active');
    expect(await within(status).findByRole('link', { name: 'Add a passkey or security key' })).toHaveAttribute(
      'href',
      '/devices/add/passkey',
    );
    expect(status).toHaveTextContent('We recommend a passkey or security key');
    expect(await screen.findByText('You have not added a device yet')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Your backup plan' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Default sign-in method' })).not.toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Your devices' })).getByRole('link', { name: 'Add a device' })).toHaveAttribute(
      'href',
      '/devices/add',
    );
    expect(api.callsTo('GET', '/api/me/default-method')).toHaveLength(0);
  });

  it('summarises live bypass codes from the profile', async () => {
    await renderPortal({ profile: profile({ bypassCodes: { active: 2, nextExpiresAt: '2025-05-02T09:00:00.000Z' } }) });
    const bypass = await screen.findByRole('region', { name: 'Bypass codes' });
    expect(bypass).toHaveTextContent('You have 2 active bypass codes.');
    expect(bypass).toHaveTextContent('The next one expires on May 2, 2025');
    expect(within(bypass).getByRole('link', { name: 'Manage bypass codes' })).toHaveAttribute('href', '/bypass-codes');
  });

  it('shows the overview at an unknown address, keeping the address, and says the page does not exist', async () => {
    await renderPortal({ path: '/no/such/page?x=1' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Hello, Bob' })).toBeInTheDocument();
    expect(screen.getByText('There is no page at this address')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/no/such/page?x=1');
  });
});

describe('default sign-in method', () => {
  const region = () => screen.findByRole('region', { name: 'Default sign-in method' });

  it('says what is offered first and why, and lets the person choose another, the focus following', async () => {
    const user = userEvent.setup();
    const { api, profile: start } = await renderPortal();
    const chosen = { deviceId: token.id, method: 'passcode' as const };
    api.on('PUT', '/api/me/default-method', () => json(defaultMethodOf(start, chosen)));
    const section = await region();
    expect(await within(section).findByText("Offered first: Approve a push on “Bob's phone”")).toBeInTheDocument();
    expect(section).toHaveTextContent('Chosen for you: the safest way you have.');

    await user.click(within(section).getByRole('button', { name: 'Change the default' }));
    const group = within(section).getByRole('radiogroup');
    expect(
      within(section)
        .getAllByRole('radio')
        .map((r) => r.closest('label')?.textContent),
    ).toEqual(["Approve a push on “Bob's phone”", "Enter a code from “Bob's phone”", 'Enter a code from “Key ring token”']);
    // The method chosen now has the focus when the choice opens.
    await waitFor(() => expect(within(group).getByRole('radio', { name: "Approve a push on “Bob's phone”" })).toHaveFocus());
    await user.click(within(group).getByRole('radio', { name: 'Enter a code from “Key ring token”' }));
    await user.click(within(section).getByRole('button', { name: 'Save' }));

    expect(await within(section).findByText('Offered first: Enter a code from “Key ring token”')).toBeInTheDocument();
    expect(within(section).getByRole('status')).toHaveTextContent('Saved: “Enter a code from “Key ring token”” is now offered first');
    expect(section).not.toHaveTextContent('Chosen for you');
    expect(api.callsTo('PUT', '/api/me/default-method')[0]?.body).toEqual(chosen);
    await waitFor(() => expect(within(section).getByRole('button', { name: 'Change the default' })).toHaveFocus());
  });

  it('says so when the chosen device was removed and the safest one left is offered instead', async () => {
    await renderPortal({
      api: (a) => a.on('GET', '/api/me/default-method', () => json(defaultMethodOf(profile(), { deviceId: 'gone', method: 'passcode' }))),
    });
    const section = await region();
    expect(await within(section).findByText(/The default you chose is no longer there/)).toBeInTheDocument();
    expect(section).toHaveTextContent("Offered first: Approve a push on “Bob's phone”");
  });

  it('shows a refusal where the choice was made, and keeps the choice open', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal();
    api.on('PUT', '/api/me/default-method', () => apiError(404, 'device.not_found'));
    const section = await region();
    await user.click(await within(section).findByRole('button', { name: 'Change the default' }));
    await user.click(within(section).getByRole('radio', { name: 'Enter a code from “Key ring token”' }));
    await user.click(within(section).getByRole('button', { name: 'Save' }));
    expect(await within(section).findByRole('alert')).toHaveTextContent('The default was not changed');
    expect(section).toHaveTextContent("Offered first: Approve a push on “Bob's phone”");
    expect(within(section).getByRole('button', { name: 'Save' })).toBeInTheDocument();
  });

  it("on Duo: says Duo's own prompt decides, and offers no choice", async () => {
    await renderPortal({ profile: profile({ provider: 'duo' }) });
    const section = await region();
    expect(await within(section).findByText(/Duo’s own sign-in prompt decides which device it asks for first/)).toBeInTheDocument();
    expect(within(section).queryByRole('button')).not.toBeInTheDocument();
  });
});

describe('on a phone', () => {
  it('keeps a device card short: "Check it works" and "More", which shows the other actions', async () => {
    vi.spyOn(window, 'matchMedia').mockImplementation(
      (query: string) =>
        ({
          matches: query === '(max-width: 40rem)',
          media: query,
          onchange: null,
          addListener: () => undefined,
          removeListener: () => undefined,
          addEventListener: () => undefined,
          removeEventListener: () => undefined,
          dispatchEvent: () => false,
        }) as MediaQueryList,
    );
    const user = userEvent.setup();
    await renderPortal();
    const card = await within(await devicesRegion()).findByRole('article', { name: 'Key ring token' });
    expect(within(card).getByRole('button', { name: 'Check it works: “Key ring token”' })).toBeVisible();
    const more = within(card).getByRole('button', { name: 'More actions for “Key ring token”' });
    expect(more).toHaveAttribute('aria-expanded', 'false');
    expect(within(card).getByRole('button', { name: 'Remove “Key ring token”', hidden: true })).not.toBeVisible();
    await user.click(more);
    expect(more).toHaveAttribute('aria-expanded', 'true');
    expect(within(card).getByRole('button', { name: 'Remove “Key ring token”' })).toBeVisible();
    expect(within(card).getByRole('button', { name: 'Resync “Key ring token”' })).toBeVisible();
  });
});

describe('rename a device', () => {
  it('sends the new name, confirms it on the renamed device and refreshes the list and the profile', async () => {
    const user = userEvent.setup();
    const renamed = { ...phone, name: 'Old iPhone' };
    const { api } = await renderPortal();
    api
      .on('PATCH', `/api/me/devices/${phone.id}`, () => json(renamed))
      .on('GET', '/api/me/devices', () => json({ devices: [renamed, token] }))
      .on('GET', '/account/getuserinfo', () => json(profile({ devices: [renamed, token] })));

    await user.click(await screen.findByRole('button', { name: "Rename “Bob's phone”" }));
    const dialog = await findDialog("Rename “Bob's phone”");
    const field = within(dialog).getByLabelText('New name');
    await user.clear(field);
    await user.type(field, 'Old iPhone{Enter}');

    expect(api.callsTo('PATCH', `/api/me/devices/${phone.id}`)[0]?.body).toEqual({ name: 'Old iPhone' });
    expect(api.callsTo('PATCH', `/api/me/devices/${phone.id}`)[0]?.headers.get('authorization')).toMatch(/^Bearer api-token-\d+$/);
    // Said on the device's own card (where the person is looking), not in a banner at the top.
    const card = await within(await devicesRegion()).findByRole('article', { name: 'Old iPhone' });
    await waitFor(() => expect(within(card).getByRole('status')).toHaveTextContent('The device is now called “Old iPhone”.'));
    expect(screen.getByRole('main').querySelector('.flash-region')).toBeEmptyDOMElement();
    await waitFor(() => expect(api.callsTo('GET', '/account/getuserinfo')).toHaveLength(2));
    await waitFor(() => expect(queryDialog("Rename “Bob's phone”")).toBeUndefined());
  });

  it('refuses an empty name without calling the API and shows the translated error of a refusal', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal();
    api.on('PATCH', `/api/me/devices/${phone.id}`, () => apiError(404, 'device.not_found'));
    await user.click(await screen.findByRole('button', { name: "Rename “Bob's phone”" }));
    const dialog = await screen.findByRole('dialog');
    const field = within(dialog).getByLabelText('New name');
    await user.clear(field);
    await user.click(within(dialog).getByRole('button', { name: 'Save the name' }));
    expect(await within(dialog).findByText('Please enter a name.')).toBeInTheDocument();
    expect(api.callsTo('PATCH', `/api/me/devices/${phone.id}`)).toHaveLength(0);

    await user.type(field, 'Spare');
    await user.click(within(dialog).getByRole('button', { name: 'Save the name' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('The name was not changed');
    expect(alert).toHaveTextContent('That device could not be found on your account.');
  });
});

describe('remove a device', () => {
  it('asks to confirm it is the user (step-up) when the API requires it, then retries the removal once', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal();
    api
      .on(
        'DELETE',
        `/api/me/devices/${phone.id}`,
        () => apiError(403, 'auth.step_up_required', { maxAgeSeconds: 300 }),
        () => json(null, 204),
      )
      .on('POST', '/api/me/step-up', () =>
        json({
          active: true,
          method: 'passcode',
          verifiedAt: '2025-05-01T10:00:00.000Z',
          expiresAt: '2025-05-01T10:05:00.000Z',
          maxAgeSeconds: 300,
        }),
      )
      .on('GET', '/api/me/devices', () => json({ devices: [token] }))
      .on('GET', '/account/getuserinfo', () => json(profile({ devices: [token] })));

    await user.click(await screen.findByRole('button', { name: "Remove “Bob's phone”" }));
    const confirm = await findDialog("Remove “Bob's phone”?");
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));

    const stepUp = await findDialog('Confirm it is you');
    await user.type(within(stepUp).getByLabelText('Code from your device'), '123456{Enter}');

    expect(await screen.findByText("“Bob's phone” has been removed.")).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/me/step-up')[0]?.body).toEqual({ method: 'passcode', code: '123456' });
    const deletes = api.callsTo('DELETE', `/api/me/devices/${phone.id}`);
    expect(deletes).toHaveLength(2);
    expect(deletes.every((d) => !d.query.has('confirmLastDevice'))).toBe(true);
    await waitFor(() =>
      expect(
        within(screen.getByRole('region', { name: 'Your devices' })).queryByRole('article', { name: "Bob's phone" }),
      ).not.toBeInTheDocument(),
    );
  });

  it('keeps the step-up dialog open with the reason when the code is refused, and accepts a bypass code', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal();
    api
      .on(
        'DELETE',
        `/api/me/devices/${phone.id}`,
        () => apiError(403, 'auth.step_up_required'),
        () => json(null, 204),
      )
      .on(
        'POST',
        '/api/me/step-up',
        () => apiError(422, 'mfa.code_invalid', { field: 'code' }),
        () =>
          json({
            active: true,
            method: 'bypass',
            verifiedAt: '2025-05-01T10:00:00.000Z',
            expiresAt: '2025-05-01T10:05:00.000Z',
            maxAgeSeconds: 300,
          }),
      );
    await user.click(await screen.findByRole('button', { name: "Remove “Bob's phone”" }));
    await user.click(within(await findDialog("Remove “Bob's phone”?")).getByRole('button', { name: 'Remove' }));
    const stepUp = await findDialog('Confirm it is you');
    await user.type(within(stepUp).getByLabelText('Code from your device'), '000000{Enter}');
    expect(await within(stepUp).findByRole('alert')).toHaveTextContent('That code is not correct. Please check it and try again.');

    await user.click(within(stepUp).getByRole('radio', { name: 'A bypass code' }));
    await user.type(within(stepUp).getByLabelText('Bypass code'), '123 456 789{Enter}');
    expect(await screen.findByText("“Bob's phone” has been removed.")).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/me/step-up')[1]?.body).toEqual({ method: 'bypass', code: '123456789' });
  });

  it('retries only once: a second step-up demand is shown as an error, not another dialog', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal();
    api
      .on('DELETE', `/api/me/devices/${phone.id}`, () => apiError(403, 'auth.step_up_required'))
      .on('POST', '/api/me/step-up', () =>
        json({
          active: true,
          method: 'passcode',
          verifiedAt: '2025-05-01T10:00:00.000Z',
          expiresAt: '2025-05-01T10:05:00.000Z',
          maxAgeSeconds: 300,
        }),
      );
    await user.click(await screen.findByRole('button', { name: "Remove “Bob's phone”" }));
    const confirm = await findDialog("Remove “Bob's phone”?");
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await user.type(within(await findDialog('Confirm it is you')).getByLabelText('Code from your device'), '123456{Enter}');
    expect(await within(confirm).findByRole('alert')).toHaveTextContent(
      'For your security, please confirm it is you with a passcode or a bypass code first.',
    );
    expect(api.callsTo('DELETE', `/api/me/devices/${phone.id}`)).toHaveLength(2);
    expect(api.callsTo('POST', '/api/me/step-up')).toHaveLength(1);
  });

  it('changes nothing and says so when the user cancels the step-up', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal();
    api.on('DELETE', `/api/me/devices/${phone.id}`, () => apiError(403, 'auth.step_up_required'));
    await user.click(await screen.findByRole('button', { name: "Remove “Bob's phone”" }));
    const confirm = await findDialog("Remove “Bob's phone”?");
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    const stepUp = await findDialog('Confirm it is you');
    await user.click(within(stepUp).getByRole('button', { name: 'Cancel' }));
    expect(await within(confirm).findByText('Nothing was removed, because you did not confirm it is you.')).toBeInTheDocument();
    expect(api.callsTo('DELETE', `/api/me/devices/${phone.id}`)).toHaveLength(1);
    expect(api.callsTo('POST', '/api/me/step-up')).toHaveLength(0);
  });

  it('explains the consequence before removing the only device, then sends confirmLastDevice=true', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({ profile: profile({ devices: [phone] }) });
    api.on('DELETE', `/api/me/devices/${phone.id}`, () => json(null, 204)).on('GET', '/api/me/devices', () => json({ devices: [] }));
    await user.click(await screen.findByRole('button', { name: "Remove “Bob's phone”" }));
    const dialog = await findDialog('Remove your only device?');
    expect(dialog).toHaveTextContent(
      'If you remove it, you will not be able to confirm it is you when you sign in until you add another device.',
    );
    const remove = within(dialog).getByRole('button', { name: 'Remove' });
    expect(remove).toBeDisabled();
    await user.click(within(dialog).getByRole('checkbox', { name: 'I understand that I will have no device left' }));
    await user.click(remove);
    expect(await screen.findByText("“Bob's phone” has been removed.")).toBeInTheDocument();
    expect(api.callsTo('DELETE', `/api/me/devices/${phone.id}`)[0]?.query.get('confirmLastDevice')).toBe('true');
    expect(await screen.findByText('You have not added a device yet')).toBeInTheDocument();
  });

  it('switches to the explanation when the API answers that this is the last device', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal();
    api.on('DELETE', `/api/me/devices/${phone.id}`, () => apiError(409, 'device.last_device_confirmation_required'));
    await user.click(await screen.findByRole('button', { name: "Remove “Bob's phone”" }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove' }));
    expect(await findDialog('Remove your only device?')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'I understand that I will have no device left' })).not.toBeChecked();
  });
});

describe('check that a device works', () => {
  it('says clearly that the code was right', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({ profile: profile({ devices: [authenticator] }) });
    api.on('POST', `/api/me/devices/${authenticator.id}/test`, () =>
      json({
        verified: true,
        device: { ...authenticator, lastUsedAt: '2025-05-01T14:05:00.000Z' },
        verifiedAt: '2025-05-01T14:05:00.000Z',
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Check it works: “Work phone app”' }));
    const dialog = await findDialog('Check that “Work phone app” works');
    await user.type(within(dialog).getByLabelText('Code from the device'), '654 321{Enter}');
    const result = await within(dialog).findByRole('status');
    expect(result).toHaveTextContent('It works');
    expect(result).toHaveTextContent('The code from “Work phone app” was correct');
    expect(api.callsTo('POST', `/api/me/devices/${authenticator.id}/test`)[0]?.body).toEqual({ code: '654321' });
  });

  it('says clearly that the code was refused, with the reason', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({ profile: profile({ devices: [authenticator] }) });
    api.on('POST', `/api/me/devices/${authenticator.id}/test`, () => apiError(422, 'mfa.code_replayed', { field: 'code' }));
    await user.click(await screen.findByRole('button', { name: 'Check it works: “Work phone app”' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Code from the device'), '12345{Enter}');
    expect(await within(dialog).findByText('The code is 6 digits, for example 123456.')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Code from the device'), '6{Enter}');
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('The code was not accepted');
    expect(alert).toHaveTextContent('That code has already been used. Please wait for a new code and try again.');
    expect(within(dialog).queryByText('It works')).not.toBeInTheDocument();
  });

  it('tells when to try again after too many attempts', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({ profile: profile({ devices: [authenticator] }) });
    api.on('POST', `/api/me/devices/${authenticator.id}/test`, () =>
      apiError(429, 'request.rate_limited', { retryAfterSeconds: 42 }, { 'retry-after': '42' }),
    );
    await user.click(await screen.findByRole('button', { name: 'Check it works: “Work phone app”' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Code from the device'), '123456{Enter}');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Too many attempts. Please wait a moment and try again. You can try again in 42 seconds.',
    );
  });
});

describe('resync a hardware token', () => {
  it('sends three codes in order', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal();
    api.on('POST', `/api/me/devices/${token.id}/resync`, () => json(token));
    await user.click(await screen.findByRole('button', { name: 'Resync “Key ring token”' }));
    const dialog = await findDialog('Resync “Key ring token”');
    await user.type(within(dialog).getByLabelText('First code'), '111111');
    await user.type(within(dialog).getByLabelText('Second code'), '222222');
    await user.type(within(dialog).getByLabelText('Third code'), '333333');
    // (jsdom does not submit a multi-field form on Enter through a footer button linked by form=; Chromium does, see e2e)
    await user.click(within(dialog).getByRole('button', { name: 'Resync the token' }));
    expect(await screen.findByText('“Key ring token” is back in step and ready to use.')).toBeInTheDocument();
    expect(api.callsTo('POST', `/api/me/devices/${token.id}/resync`)[0]?.body).toEqual({ codes: ['111111', '222222', '333333'] });
  });
});

describe('a protected account (administrator role)', () => {
  const protectedProfile = () => {
    const p = profile();
    return { ...p, user: { ...p.user, roles: ['Helpdesk Administrator'], portalRole: 'helpdesk' as const, isProtected: true } };
  };

  it('hides the changes the server would refuse and says why', async () => {
    await renderPortal({ profile: protectedProfile() });
    const devices = await screen.findByRole('region', { name: 'Your devices' });
    expect(within(devices).getByText('Your account is protected')).toBeInTheDocument();
    expect(within(devices).queryByRole('button', { name: /Rename|Remove|Resync/ })).not.toBeInTheDocument();
    expect(within(devices).getByRole('button', { name: "Check it works: “Bob's phone”" })).toBeInTheDocument();
    expect(within(devices).queryByRole('link', { name: 'Add a device' })).not.toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Main' })).queryByRole('link', { name: 'Add a device' })).not.toBeInTheDocument();
  });

  it('shows the explanation instead of a form when an add-device address is opened', async () => {
    await renderPortal({ path: '/devices/add/token', profile: protectedProfile() });
    expect(screen.getByRole('heading', { level: 1, name: 'Your account is protected' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Serial number')).not.toBeInTheDocument();
  });
});
