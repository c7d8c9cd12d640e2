import '../test/setup';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PushStateName, StepUpPushStatus } from '@mfa-portal/shared';
import { pushPolling } from '../push/push-polling';
import { findDialog, queryDialog } from '../test/dialogs';
import { apiError, defaultMethodOf, fakeEventStreams, json } from '../test/fake-api';
import { builtinWithApp, pixel } from '../test/portal-authenticator';
import { renderPortal } from '../../test/render-portal';
import { profile, token } from '../../test/fixtures';

/** Step-up by a push to the portal's own app: the number to type, and the answer told over SSE. */

const TXID = '11111111-2222-4333-8444-555555555555';
const status = (state: PushStateName): StepUpPushStatus => ({
  txid: TXID,
  deviceId: pixel.id,
  state,
  startedAt: '2025-05-01T12:00:00.000Z',
  expiresAt: '2025-05-01T12:01:00.000Z',
  completedAt: state === 'waiting' ? null : '2025-05-01T12:00:10.000Z',
  stepUp:
    state === 'approved'
      ? { active: true, method: 'push', verifiedAt: '2025-05-01T12:00:10.000Z', expiresAt: '2025-05-01T12:05:10.000Z', maxAgeSeconds: 300 }
      : { active: false, method: null, verifiedAt: null, expiresAt: null, maxAgeSeconds: 300 },
});
const { stepUp: _omit, ...waiting } = status('waiting');

beforeEach(() => {
  // Polling so slow that only the server's event can show the answer in time.
  pushPolling.intervalMs = 60_000;
});
afterEach(() => {
  pushPolling.intervalMs = 2000;
});

describe('step-up by a push to Portal Authenticator', () => {
  it('names the app, shows the number to type in it, and goes on as soon as the server says it was approved', async () => {
    const user = userEvent.setup();
    const streams = fakeEventStreams();
    const { api } = await renderPortal({
      profile: profile({ devices: [pixel, token] }),
      api: (a) =>
        a
          .on('GET', '/api/me/capabilities', builtinWithApp)
          .on(
            'DELETE',
            `/api/me/devices/${token.id}`,
            () => apiError(403, 'auth.step_up_required'),
            () => json(null, 204),
          )
          .on('POST', '/api/me/step-up/push', () => json({ ...waiting, verificationCode: '37' }, 202))
          .on(
            'GET',
            `/api/me/step-up/push/${TXID}`,
            () => json(status('waiting')),
            () => json(status('approved')),
          )
          .on('GET', `/api/me/push/${TXID}/events`, streams.handler)
          .on('GET', '/api/me/devices', () => json({ devices: [pixel] })),
    });
    await user.click(await screen.findByRole('button', { name: 'Remove “Key ring token”' }));
    await user.click(within(await findDialog('Remove “Key ring token”?')).getByRole('button', { name: 'Remove' }));
    const dialog = await findDialog('Confirm it is you');
    await user.click(within(dialog).getByRole('radio', { name: 'A push to my phone (approve it on the phone)' }));
    expect(
      within(dialog).getByText('We will send a push to “Portal Authenticator on Pixel 8”. Approve it on the phone.'),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Send a push' }));

    const code = await within(dialog).findByRole('group', { name: 'Number to enter on the phone' });
    expect(code).toHaveTextContent('Type this number in Portal Authenticator on Pixel 8:');
    expect(within(code).getByText('37')).toBeInTheDocument();
    await waitFor(() => expect(streams.live).toBe(1));

    streams.send('state', { state: 'approved' });
    expect(await screen.findByText('“Key ring token” has been removed.', {}, { timeout: 1500 })).toBeInTheDocument();
    await waitFor(() => expect(queryDialog('Confirm it is you')).toBeUndefined());
    expect(streams.live).toBe(0);
    expect(api.callsTo('POST', '/api/me/step-up/push').map((c) => c.body)).toEqual([{ deviceId: pixel.id }]);
  });

  it('starts on the default sign-in method the person chose (a push to this phone), and keeps the person’s own change', async () => {
    const user = userEvent.setup();
    const mine = profile({ devices: [pixel, token] });
    await renderPortal({
      profile: mine,
      api: (a) =>
        a
          .on('GET', '/api/me/capabilities', builtinWithApp)
          .on('GET', '/api/me/default-method', () => json(defaultMethodOf(mine, { deviceId: pixel.id, method: 'push' })))
          .on('DELETE', `/api/me/devices/${token.id}`, () => apiError(403, 'auth.step_up_required'))
          .on('GET', '/api/me/devices', () => json({ devices: [pixel, token] })),
    });
    const open = async () => {
      await user.click(await screen.findByRole('button', { name: 'Remove “Key ring token”' }));
      await user.click(within(await findDialog('Remove “Key ring token”?')).getByRole('button', { name: 'Remove' }));
      return findDialog('Confirm it is you');
    };
    const dialog = await open();
    const push = within(dialog).getByRole('radio', { name: 'A push to my phone (approve it on the phone)' });
    await waitFor(() => expect(push).toBeChecked());
    expect(
      within(dialog).getByText('We will send a push to “Portal Authenticator on Pixel 8”. Approve it on the phone.'),
    ).toBeInTheDocument();
    // The person's own change stands.
    await user.click(within(dialog).getByRole('radio', { name: 'A code from my authenticator app or hardware token' }));
    expect(within(dialog).getByRole('textbox', { name: 'Code from your device' })).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(within(dialog).getByRole('radio', { name: 'A code from my authenticator app or hardware token' })).toBeChecked();
  });
});
