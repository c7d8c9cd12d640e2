import '../../lib/test/setup';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type {
  AdminLostDeviceProgress,
  AdminVerifyPushStatus,
  Device,
  ProviderCapabilitiesResponse,
  PushStateName,
  UserInfoResponse,
} from '@mfa-portal/shared';
import { pushPolling } from '../../lib/push/push-polling';
import { apiError, capabilitiesWithoutPush, json, type FakeApi } from '../../lib/test/fake-api';
import { renderPortal } from '../../test/render-portal';
import { phone, token } from '../../test/fixtures';
import { adminProfile, BOB_PATH, noProgress, userDetail, verifiedAtNoon, verifiedNone } from './test-fixtures';

/**
 * The helpdesk's verification push: offered in "Verify the caller" only where the MFA
 * service sends pushes and the user has a phone that takes them; the confirmation code is shown to
 * read back, the push is polled with progress, and its answer is said plainly. An approval counts as
 * a recent identity check, exactly as a right passcode.
 */

beforeAll(async () => {
  await import('./AdminArea');
});
beforeEach(() => {
  pushPolling.intervalMs = 20;
});
afterEach(() => {
  pushPolling.intervalMs = 2000;
  sessionStorage.clear();
});

const TXID = '11111111-2222-4333-8444-555555555555';
const PUSH_PATH = `${BOB_PATH}/verify-identity/push`;
const POLL_PATH = `${PUSH_PATH}/${TXID}`;
const CODE = '482913';
const status = (state: PushStateName): AdminVerifyPushStatus => ({
  txid: TXID,
  deviceId: phone.id,
  state,
  startedAt: '2025-05-01T12:00:00.000Z',
  expiresAt: '2025-05-01T12:02:00.000Z',
  completedAt: state === 'waiting' ? null : '2025-05-01T12:00:10.000Z',
  verified: state === 'approved',
});
const started = () => json({ ...status('waiting'), confirmationCode: CODE, verified: undefined }, 202);
const checked: AdminLostDeviceProgress = { identityCheck: { checkedAt: '2025-05-01T12:00:10.000Z', deviceId: phone.id }, case: null };

const duoAdmin = (): UserInfoResponse => {
  const p = adminProfile('helpdesk');
  return { ...p, mfa: { ...p.mfa, provider: 'duo' } };
};

/**
 * Bob's page for a helpdesk member who has not verified him yet, on `provider`, with the push answering
 * `answers` in turn (the last one repeats). The server counts the check once the push is approved (his
 * page's verification and the lost-device progress), as the real one derives it from the audit event of the answer.
 */
async function openBob(
  provider: 'builtin' | 'duo',
  answers: PushStateName[] = ['waiting'],
  devices: Device[] = [phone, token],
  capabilities?: ProviderCapabilitiesResponse,
) {
  let progress = noProgress;
  let verification = verifiedNone;
  const rendered = await renderPortal({
    path: '/admin/users/bob@example.com',
    profile: provider === 'duo' ? duoAdmin() : adminProfile('helpdesk'),
    api: (a: FakeApi) =>
      (capabilities ? a.on('GET', '/api/me/capabilities', () => json(capabilities)) : a)
        .on('GET', BOB_PATH, () => json(userDetail({ verification }, { devices })))
        .on('GET', `${BOB_PATH}/lost-device`, () => json(progress))
        .on('POST', PUSH_PATH, started)
        .on(
          'GET',
          POLL_PATH,
          ...answers.map((state) => () => {
            if (state === 'approved') {
              progress = checked;
              verification = verifiedAtNoon('push');
            }
            return json(status(state));
          }),
        ),
  });
  await screen.findByRole('heading', { level: 1, name: 'Bob Brown' });
  return { ...rendered, region: screen.getByRole('region', { name: 'Verify the caller' }) };
}

async function sendPush(user: ReturnType<typeof userEvent.setup>, region: HTMLElement) {
  const push = await within(region).findByRole('region', { name: 'Send a verification push' });
  await user.click(within(push).getByRole('button', { name: 'Send a verification push' }));
  return push;
}

const pollsSettle = async (api: FakeApi) => {
  const polls = api.callsTo('GET', POLL_PATH).length;
  await new Promise((r) => setTimeout(r, 150));
  expect(api.callsTo('GET', POLL_PATH).length).toBe(polls);
};

describe('verification push on the user page', () => {
  it('is not offered where the MFA service cannot send pushes, even for a phone recorded with push', async () => {
    const { api, region } = await openBob('builtin', ['waiting'], [phone, token], capabilitiesWithoutPush());
    await waitFor(() => expect(api.callsTo('GET', '/api/me/capabilities')).toHaveLength(1));
    expect(within(region).getByLabelText('Code they read out')).toBeInTheDocument();
    expect(region).not.toHaveTextContent(/push/i);
    // The only way offered besides the code: recording a verification made by hand, folded away.
    expect(within(region).queryAllByRole('heading', { level: 3 })).toEqual([]);
    expect(within(region).getByText('They have no device left')).toBeInTheDocument();
  });

  it('is offered on Duo next to the passcode, for the phones that take pushes only', async () => {
    const { api, region } = await openBob('duo');
    const push = await within(region).findByRole('region', { name: 'Send a verification push' });
    expect(within(region).getByRole('heading', { name: 'Check a code they read out' })).toBeInTheDocument();
    expect(within(region).getByLabelText('Code they read out')).toBeInTheDocument();
    const select = within(push).getByLabelText('Phone to send the push to');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([`Bob's phone (${phone.phoneNumber})`]);
    expect(api.callsTo('POST', PUSH_PATH)).toHaveLength(0);
  });

  it('is not offered on Duo when the user has no phone that takes pushes (and capabilities are not even asked)', async () => {
    const { api, region } = await openBob('duo', ['waiting'], [token, { ...phone, capabilities: ['passcode'] }]);
    expect(within(region).getByLabelText('Code they read out')).toBeInTheDocument();
    expect(region).not.toHaveTextContent(/push/i);
    expect(api.callsTo('GET', '/api/me/capabilities')).toHaveLength(0);
  });

  it('offers only the push, without the "no device" warning, for a user whose only device is a push-only phone', async () => {
    const { region } = await openBob('duo', ['waiting'], [{ ...phone, capabilities: ['push'] }]);
    expect(await within(region).findByRole('region', { name: 'Send a verification push' })).toBeInTheDocument();
    expect(region).toHaveTextContent('None of their devices shows a code: send them a verification push instead.');
    expect(region).not.toHaveTextContent('No device can give a code');
    expect(within(region).queryByLabelText('Code they read out')).not.toBeInTheDocument();
  });

  it('sends it with the call\'s ticket, shows the confirmation code to read back and progress, then "Verified", once', async () => {
    const user = userEvent.setup();
    const { api, region } = await openBob('duo', ['waiting', 'waiting', 'approved']);
    expect(region).toHaveTextContent('Not verified yet: check a code from one of their devices.');
    await user.type(within(region).getByLabelText('Ticket reference'), 'INC-9');
    const push = await sendPush(user, region);
    const code = await within(push).findByRole('group', { name: 'Confirmation code' });
    expect(code).toHaveTextContent(CODE);
    expect(code).toHaveTextContent("Ask the caller to read you the code shown on “Bob's phone” before they approve.");
    expect(
      within(push).getByText(/Waiting for the caller to approve the push on “Bob's phone”\. This can take up to 1 minute\./),
    ).toBeInTheDocument();
    // The button keeps the focus while waiting, and a second click sends nothing.
    const button = within(push).getByRole('button', { name: /Waiting for their answer/ });
    expect(button).toHaveFocus();
    await user.click(button);

    // The answer refreshed the page's verification, as a right passcode does: said once, in one line.
    expect(await within(region).findByText('Verified by push at 12:00 PM, until 12:15 PM.', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(screen.queryByText(/They approved the verification push/)).not.toBeInTheDocument();
    expect(within(region).queryByRole('region', { name: 'Send a verification push' })).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Devices and codes' })).toHaveFocus();
    expect(api.callsTo('POST', PUSH_PATH).map((c) => c.body)).toEqual([{ deviceId: phone.id, ticket: 'INC-9' }]);
    expect(api.callsTo('GET', POLL_PATH).length).toBeGreaterThanOrEqual(3);
    // Polling stops once answered.
    await pollsSettle(api);
  });

  it.each([
    ['denied', 'Not verified: the push was denied', "The push was denied on “Bob's phone”, so the caller is not verified."],
    ['fraud', 'Not verified: the push was reported as fraud', 'The caller may not be who they say they are: do not act for them'],
    ['timeout', 'Not verified: no answer in time', 'Nobody answered the push within 1 minute, so the caller is not verified.'],
  ] as const)('says unambiguously when the push was %s, and the caller stays unverified', async (state, title, body) => {
    const user = userEvent.setup();
    const { api, region } = await openBob('duo', ['waiting', state]);
    const push = await sendPush(user, region);
    expect(await within(push).findByText(title, {}, { timeout: 3000 })).toBeInTheDocument();
    expect(push).toHaveTextContent(body);
    expect(within(region).queryByText('Verified', { selector: '.success-box__title' })).not.toBeInTheDocument();
    expect(within(push).queryByRole('group', { name: 'Confirmation code' })).not.toBeInTheDocument();
    expect(region).toHaveTextContent('Not verified yet');
    await pollsSettle(api);
    expect(within(push).getByRole('button', { name: 'Send another push' })).toBeEnabled();
  });

  it('stops asking about the push when the administrator leaves the page while waiting', async () => {
    const user = userEvent.setup();
    const { api, region } = await openBob('duo', ['waiting']);
    await sendPush(user, region);
    await waitFor(() => expect(api.callsTo('GET', POLL_PATH).length).toBeGreaterThan(1));
    await user.click(within(screen.getByRole('navigation', { name: 'Administration' })).getByRole('link', { name: 'Users' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Verify the caller' })).not.toBeInTheDocument());
    await pollsSettle(api);
  });

  it('says why when the push cannot be sent', async () => {
    const user = userEvent.setup();
    const { api, region } = await openBob('duo');
    api.on('POST', PUSH_PATH, () => apiError(429, 'request.rate_limited', { retryAfterSeconds: 60 }, { 'retry-after': '60' }));
    const push = await sendPush(user, region);
    const alert = await within(push).findByRole('alert');
    expect(alert).toHaveTextContent('The push could not be sent');
    expect(alert).toHaveTextContent('Too many attempts');
    expect(api.callsTo('GET', POLL_PATH)).toHaveLength(0);
  });

  it('says so when the answer cannot be read, and lets another push be sent', async () => {
    const user = userEvent.setup();
    const { api, region } = await openBob('duo');
    api.on('GET', POLL_PATH, () => apiError(404, 'push.not_found'));
    const push = await sendPush(user, region);
    const alert = await within(push).findByRole('alert');
    expect(alert).toHaveTextContent('We could not get the answer to the push');
    expect(alert).toHaveTextContent('That push was not found. Send a new one.');
    expect(within(push).queryByRole('group', { name: 'Confirmation code' })).not.toBeInTheDocument();
    await user.click(within(push).getByRole('button', { name: 'Send another push' }));
    await waitFor(() => expect(api.callsTo('POST', PUSH_PATH)).toHaveLength(2));
  });
});

describe('verification push in the lost-device wizard', () => {
  async function openWizard(answers: PushStateName[]) {
    let progress = noProgress;
    const rendered = await renderPortal({
      path: '/admin/users/bob@example.com/lost-device',
      profile: duoAdmin(),
      api: (a) =>
        a
          .on('GET', BOB_PATH, () => json(userDetail()))
          .on('GET', `${BOB_PATH}/lost-device`, () => json(progress))
          .on('POST', PUSH_PATH, started)
          .on(
            'GET',
            POLL_PATH,
            ...answers.map((state) => () => {
              if (state === 'approved') progress = checked;
              return json(status(state));
            }),
          ),
    });
    expect(await screen.findByRole('heading', { name: 'Step 1: Verify the caller' })).toBeInTheDocument();
    return rendered;
  }

  it('verifies the caller by push (never to the lost phone, it warns) and moves on to removing the device', async () => {
    const user = userEvent.setup();
    const { api } = await openWizard(['waiting', 'approved']);
    const push = await screen.findByRole('region', { name: 'Send a verification push' });
    expect(push).toHaveTextContent('never to the one they lost');
    await user.click(within(push).getByRole('button', { name: 'Send a verification push' }));
    expect(await screen.findByRole('group', { name: 'Confirmation code' })).toHaveTextContent(CODE);
    expect(await screen.findByRole('heading', { name: 'Step 2: Remove the lost device' }, { timeout: 3000 })).toBeInTheDocument();
    expect(api.callsTo('POST', `${BOB_PATH}/verify-identity`)).toHaveLength(0);
    await pollsSettle(api);
  });

  it('stops asking about the push when the step is left while waiting', async () => {
    const user = userEvent.setup();
    const { api } = await openWizard(['waiting']);
    const push = await screen.findByRole('region', { name: 'Send a verification push' });
    await user.click(within(push).getByRole('button', { name: 'Send a verification push' }));
    await waitFor(() => expect(api.callsTo('GET', POLL_PATH).length).toBeGreaterThan(1));
    await user.click(screen.getByRole('button', { name: 'I verified them another way' }));
    expect(await screen.findByRole('heading', { name: 'Step 2: Remove the lost device' })).toBeInTheDocument();
    await pollsSettle(api);
  });
});
