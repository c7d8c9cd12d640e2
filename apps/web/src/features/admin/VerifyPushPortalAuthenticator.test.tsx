import '../../lib/test/setup';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminVerifyPushStatus, PushStateName } from '@mfa-portal/shared';
import { pushPolling } from '../../lib/push/push-polling';
import { fakeEventStreams, json } from '../../lib/test/fake-api';
import { builtinWithApp, pixel } from '../../lib/test/portal-authenticator';
import { renderPortal } from '../../test/render-portal';
import { token } from '../../test/fixtures';
import { adminProfile, BOB_PATH, noProgress, userDetail, verifiedAtNoon, verifiedNone } from './test-fixtures';

/** The helpdesk's verification push to the portal's own app: the agent reads the number, the caller types it. */

beforeAll(async () => {
  await import('./AdminArea');
});
beforeEach(() => {
  pushPolling.intervalMs = 60_000;
});
afterEach(() => {
  pushPolling.intervalMs = 2000;
  sessionStorage.clear();
});

const TXID = '11111111-2222-4333-8444-555555555555';
const PUSH_PATH = `${BOB_PATH}/verify-identity/push`;
const status = (state: PushStateName): AdminVerifyPushStatus => ({
  txid: TXID,
  deviceId: pixel.id,
  state,
  startedAt: '2025-05-01T12:00:00.000Z',
  expiresAt: '2025-05-01T12:01:00.000Z',
  completedAt: state === 'waiting' ? null : '2025-05-01T12:00:10.000Z',
  verified: state === 'approved',
});

describe('verification push to Portal Authenticator', () => {
  it('lists the phone by its app, gives the agent the number to read out, and shows the approval at once', async () => {
    const user = userEvent.setup();
    const streams = fakeEventStreams();
    let verification = verifiedNone;
    await renderPortal({
      path: '/admin/users/bob@example.com',
      profile: adminProfile('helpdesk'),
      api: (a) =>
        a
          .on('GET', '/api/me/capabilities', builtinWithApp)
          .on('GET', BOB_PATH, () => json(userDetail({ verification }, { devices: [pixel, token] })))
          .on('GET', `${BOB_PATH}/lost-device`, () => json(noProgress))
          .on('POST', PUSH_PATH, () => json({ ...status('waiting'), confirmationCode: '58', verified: undefined }, 202))
          .on(
            'GET',
            `${PUSH_PATH}/${TXID}`,
            () => json(status('waiting')),
            () => {
              verification = verifiedAtNoon('push');
              return json(status('approved'));
            },
          )
          .on('GET', `/api/me/push/${TXID}/events`, streams.handler),
    });
    await screen.findByRole('heading', { level: 1, name: 'Bob Brown' });
    const devices = screen.getByRole('region', { name: 'Devices and codes' });
    expect(within(devices).getByText('Portal Authenticator on Pixel 8')).toBeInTheDocument();
    expect(devices).toHaveTextContent('Phone with Portal Authenticator (push and passcodes) · Push, Passcode');
    expect(within(devices).getByRole('button', { name: 'Remove “Portal Authenticator on Pixel 8”' })).toBeInTheDocument();

    const region = screen.getByRole('region', { name: 'Verify the caller' });
    const push = await within(region).findByRole('region', { name: 'Send a verification push' });
    expect(push).toHaveTextContent('You read them the number shown here; they type it in the app, then approve.');
    expect(within(push).getByRole('option', { name: 'Portal Authenticator on Pixel 8' })).toBeInTheDocument();
    await user.click(within(push).getByRole('button', { name: 'Send a verification push' }));
    const code = await within(push).findByRole('group', { name: 'Number to read to the caller' });
    expect(within(code).getByText('58')).toBeInTheDocument();
    expect(code).toHaveTextContent('They type it in Portal Authenticator on Pixel 8, then approve.');

    await waitFor(() => expect(streams.live).toBe(1));
    streams.send('state', { state: 'approved' });
    expect(await within(region).findByText('Verified by push at 12:00 PM, until 12:15 PM.', {}, { timeout: 1500 })).toBeInTheDocument();
    await waitFor(() => expect(streams.live).toBe(0));
  });
});
