import '../../lib/test/setup';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminLostDeviceProgress, Device } from '@mfa-portal/shared';
import { json } from '../../lib/test/fake-api';
import { renderPortal } from '../../test/render-portal';
import { phone, token } from '../../test/fixtures';
import { adminProfile, BOB_PATH, noProgress, userDetail } from './test-fixtures';

beforeAll(async () => {
  await import('./AdminArea');
});

const newApp: Device = {
  ...token,
  id: 'd9',
  kind: 'authenticator',
  name: 'New phone app',
  serial: null,
  tokenType: null,
  createdAt: '2025-05-01T11:00:00.000Z',
};
type Case = NonNullable<AdminLostDeviceProgress['case']>;
const kase = (overrides: Partial<Case> = {}): Case => ({
  startedAt: '2025-05-01T10:00:00.000Z',
  actorUpn: 'helpdesk@example.com',
  reason: 'Lost on the train',
  ticket: 'INC-7',
  removedDevice: { id: phone.id, name: "Bob's phone", kind: 'phone', removedAt: '2025-05-01T10:00:00.000Z' },
  bypassCode: {
    id: '0b6f7c1e-2222-4a2b-8c3d-000000000003',
    issuedAt: '2025-05-01T10:00:01.000Z',
    expiresAt: '2025-05-02T10:00:01.000Z',
    usesLeft: 1,
  },
  newDevices: [],
  tested: null,
  ...overrides,
});
const verified = { verified: true, reason: null, checkedAt: '2025-05-01T09:59:00.000Z' };
const current = () => screen.getByRole('list', { name: 'Steps' }).querySelector('[aria-current="step"]');

describe('lost-device wizard', () => {
  it('walks from verification to a tested new device, each step on the server', async () => {
    const user = userEvent.setup();
    // What the server derives from its audit log, moved on by the calls below as the real one would.
    let server: AdminLostDeviceProgress = noProgress;
    const { api } = await renderPortal({
      path: '/admin/users/bob@example.com/lost-device',
      profile: adminProfile('helpdesk'),
      api: (a) =>
        a
          .on('GET', BOB_PATH, () => json(userDetail()))
          .on('GET', `${BOB_PATH}/lost-device`, () => json(server))
          .on(
            'POST',
            `${BOB_PATH}/verify-identity`,
            () => {
              server = { identityCheck: { checkedAt: '2025-05-01T09:59:00.000Z', deviceId: token.id }, case: null };
              return json({ ...verified, deviceId: token.id });
            },
            () => {
              server = {
                identityCheck: null,
                case: kase({ newDevices: [newApp], tested: { deviceId: newApp.id, testedAt: '2025-05-01T11:05:00.000Z' } }),
              };
              return json({ ...verified, deviceId: newApp.id });
            },
          )
          .on('POST', `${BOB_PATH}/lost-device`, () => {
            server = { identityCheck: null, case: kase() };
            return json(
              {
                deviceRemoved: true,
                bypassCode: {
                  id: '0b6f7c1e-2222-4a2b-8c3d-000000000003',
                  code: '123 456 789',
                  expiresAt: '2025-05-02T10:00:01.000Z',
                  usesLeft: 1,
                },
                enrolmentUrl: 'https://portal.example.com/',
              },
              201,
            );
          }),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Lost device: Bob Brown' })).toBeInTheDocument();
    await screen.findByRole('list', { name: 'Steps' });
    expect(current()).toHaveTextContent('Verify the caller');

    // 1. Verify with a code from the token.
    await user.selectOptions(screen.getByLabelText('Device they read the code from'), token.id);
    await user.type(screen.getByLabelText('Code they read out'), '123456{Enter}');
    expect(await screen.findByRole('heading', { name: 'Step 2: Remove the lost device' })).toBeInTheDocument();
    expect(current()).toHaveTextContent('Remove the lost device');

    // 2. Remove the phone; the code (3) is shown once.
    await user.click(screen.getByRole('radio', { name: "Bob's phone" }));
    await user.clear(screen.getByLabelText('Hours the bypass code stays valid'));
    await user.type(screen.getByLabelText('Hours the bypass code stays valid'), '25');
    await user.type(screen.getByLabelText('Reason'), 'Lost on the train');
    await user.type(screen.getByLabelText('Ticket reference'), 'INC-7');
    await user.click(screen.getByRole('button', { name: 'Remove the device and issue the code' }));
    expect(await screen.findByText('Choose a whole number from 1 to 24.')).toBeInTheDocument();
    expect(api.callsTo('POST', `${BOB_PATH}/lost-device`)).toHaveLength(0);
    await user.clear(screen.getByLabelText('Hours the bypass code stays valid'));
    await user.type(screen.getByLabelText('Hours the bypass code stays valid'), '12');
    await user.click(screen.getByRole('button', { name: 'Remove the device and issue the code' }));
    const panel = await screen.findByRole('region', { name: 'Bypass code for bob@example.com' });
    expect(panel).toHaveTextContent('123 456 789');
    expect(panel).toHaveTextContent('The lost device has been removed.');
    expect(api.callsTo('POST', `${BOB_PATH}/lost-device`)[0]?.body).toEqual({
      deviceId: phone.id,
      validitySeconds: 12 * 3600,
      confirmLastDevice: false,
      reason: 'Lost on the train',
      ticket: 'INC-7',
    });

    // 4. Guide the re-enrolment; "Check for the new device" asks the server again.
    await user.click(within(panel).getByRole('button', { name: 'Continue: new device' }));
    expect(await screen.findByRole('heading', { name: 'Step 4: Guide them to add a new device' })).toBeInTheDocument();
    expect(screen.getByText('https://portal.example.com/')).toBeInTheDocument();
    expect(screen.queryByText('123 456 789')).not.toBeInTheDocument();
    // bob adds an authenticator app meanwhile.
    server = { identityCheck: null, case: kase({ newDevices: [newApp] }) };
    await user.click(screen.getByRole('button', { name: 'Check for the new device' }));

    // 5. Test it.
    expect(await screen.findByRole('heading', { name: 'Step 5: Test the new device' })).toBeInTheDocument();
    expect(screen.getByLabelText('Device they read the code from')).toHaveDisplayValue('New phone app');
    await user.type(screen.getByLabelText('Code they read out'), '654321{Enter}');
    expect(await screen.findByText('Case complete', { selector: '.success-box__title' })).toBeInTheDocument();
    expect(api.callsTo('POST', `${BOB_PATH}/verify-identity`).map((c) => c.body)).toEqual([
      { deviceId: token.id, code: '123456' },
      { deviceId: newApp.id, code: '654321' },
    ]);
    // A long walk through five steps with the keyboard: more than the default 5 s on a busy machine.
  }, 20_000);

  it('resumes where the server says the case stands, and offers a new code (the first was shown once)', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      path: '/admin/users/bob@example.com/lost-device',
      profile: adminProfile('helpdesk'),
      api: (a) =>
        a
          .on('GET', BOB_PATH, () => json(userDetail()))
          .on('GET', `${BOB_PATH}/lost-device`, () => json({ identityCheck: null, case: kase({ actorUpn: 'colleague@example.com' }) }))
          .on('POST', `${BOB_PATH}/lost-device`, () =>
            json(
              {
                deviceRemoved: false,
                bypassCode: {
                  id: '0b6f7c1e-2222-4a2b-8c3d-000000000004',
                  code: '987 654 321',
                  expiresAt: '2025-05-02T11:00:00.000Z',
                  usesLeft: 1,
                },
                enrolmentUrl: 'https://portal.example.com/',
              },
              201,
            ),
          ),
    });
    expect(await screen.findByRole('heading', { name: 'Step 4: Guide them to add a new device' })).toBeInTheDocument();
    expect(screen.getByText('colleague@example.com started this case. You can continue it.')).toBeInTheDocument();
    expect(screen.getByText(/It has not been used yet and expires on May 2, 2025/)).toBeInTheDocument();
    const steps = within(screen.getByRole('list', { name: 'Steps' })).getAllByRole('listitem');
    expect(steps.map((s) => s.textContent)).toEqual([
      'Verify the caller (done)',
      'Remove the lost device (done)',
      'Bypass code (done)',
      'New device (current step)',
      'Test the new device (to do)',
    ]);
    await user.click(screen.getByRole('button', { name: 'Issue a new code' }));
    const panel = await screen.findByRole('region', { name: 'Bypass code for bob@example.com' });
    expect(panel).toHaveTextContent('987 654 321');
    expect(panel).toHaveTextContent('The lost device had already been removed earlier in this case.');
    expect(api.callsTo('POST', `${BOB_PATH}/lost-device`)[0]?.body).toMatchObject({
      deviceId: phone.id,
      reason: 'Lost on the train',
      ticket: 'INC-7',
    });
  });

  it('lets the caller go on after verifying another way, and remembers it in this tab', async () => {
    const user = userEvent.setup();
    await renderPortal({
      path: '/admin/users/bob@example.com/lost-device',
      profile: adminProfile('helpdesk'),
      api: (a) => a.on('GET', BOB_PATH, () => json(userDetail())).on('GET', `${BOB_PATH}/lost-device`, () => json(noProgress)),
    });
    await user.click(await screen.findByRole('button', { name: 'I verified them another way' }));
    expect(await screen.findByRole('heading', { name: 'Step 2: Remove the lost device' })).toBeInTheDocument();
    expect(screen.getByText('Say how you verified them, and why the device is removed.')).toBeInTheDocument();
    expect(JSON.parse(sessionStorage.getItem('mfa-portal.lost-device.helpdesk@example.com.bob@example.com') ?? '{}')).toEqual({
      verifiedOtherWay: true,
    });
    sessionStorage.clear();
  });

  it('is refused, with the reason, where the policy refuses the steps', async () => {
    const refused = { allowed: false, reason: 'protected_account' };
    const { api } = await renderPortal({
      path: '/admin/users/bob@example.com/lost-device',
      profile: adminProfile('helpdesk'),
      api: (a) =>
        a.on('GET', BOB_PATH, () =>
          json(userDetail({ actions: { ...userDetail().actions, delete_device: refused, create_bypass_codes: refused } })),
        ),
    });
    expect(await screen.findByText('You cannot act on this account')).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent('This account is protected');
    expect(api.callsTo('GET', `${BOB_PATH}/lost-device`)).toHaveLength(0);
  });
  it('signs the user out everywhere, with a reason (their sign-ins on the lost device end)', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      path: '/admin/users/bob@example.com/lost-device',
      profile: adminProfile('helpdesk'),
      api: (a) =>
        a
          .on('GET', BOB_PATH, () => json(userDetail()))
          .on('GET', `${BOB_PATH}/lost-device`, () => json(noProgress))
          .on('POST', `${BOB_PATH}/sign-out-everywhere`, () => json({ signedOutAt: '2025-05-01T10:00:00.000Z' })),
    });
    await user.click(await screen.findByRole('button', { name: 'Sign out everywhere' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign bob@example.com out everywhere?' });
    await user.type(within(dialog).getByLabelText('Reason'), 'Phone stolen');
    await user.type(within(dialog).getByLabelText('Ticket reference'), 'INC-9');
    await user.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));
    await vi.waitFor(() =>
      expect(api.callsTo('POST', `${BOB_PATH}/sign-out-everywhere`)[0]?.body).toMatchObject({ reason: 'Phone stolen', ticket: 'INC-9' }),
    );
    expect(await screen.findByText(/bob@example.com was signed out everywhere at/)).toBeInTheDocument();
  });
});
