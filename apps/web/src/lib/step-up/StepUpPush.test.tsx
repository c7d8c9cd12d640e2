import '../test/setup';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Device, PushStateName, StepUpPushStatus } from '@mfa-portal/shared';
import { pushPolling } from '../push/push-polling';
import { findDialog, queryDialog } from '../test/dialogs';
import { apiError, capabilitiesWithoutPush, json } from '../test/fake-api';
import { renderPortal } from '../../test/render-portal';
import { phone, profile, token } from '../../test/fixtures';

/** Step-up by push (issue 6): "Confirm it is you" offers a push when the user has a phone that takes them. */

const TXID = '11111111-2222-4333-8444-555555555555';
const status = (state: PushStateName, active = state === 'approved'): StepUpPushStatus => ({
  txid: TXID,
  deviceId: phone.id,
  state,
  startedAt: '2025-05-01T12:00:00.000Z',
  expiresAt: '2025-05-01T12:02:00.000Z',
  completedAt: state === 'waiting' ? null : '2025-05-01T12:00:10.000Z',
  stepUp: active
    ? { active: true, method: 'push', verifiedAt: '2025-05-01T12:00:10.000Z', expiresAt: '2025-05-01T12:05:10.000Z', maxAgeSeconds: 300 }
    : { active: false, method: null, verifiedAt: null, expiresAt: null, maxAgeSeconds: 300 },
});
const { stepUp: _omit, ...waiting } = status('waiting');
const started = { ...waiting, verificationCode: null };

beforeEach(() => {
  pushPolling.intervalMs = 20;
});
afterEach(() => {
  pushPolling.intervalMs = 2000;
});

async function removeToken(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'Remove “Key ring token”' }));
  await user.click(within(await findDialog('Remove “Key ring token”?')).getByRole('button', { name: 'Remove' }));
  return findDialog('Confirm it is you');
}

describe('step-up by push', () => {
  it('sends a push to the phone, waits with progress, and once approved goes on with the change', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      profile: profile({ provider: 'duo' }),
      api: (a) =>
        a
          .on(
            'DELETE',
            `/api/me/devices/${token.id}`,
            () => apiError(403, 'auth.step_up_required'),
            () => json(null, 204),
          )
          .on('POST', '/api/me/step-up/push', () => json(started, 202))
          .on(
            'GET',
            `/api/me/step-up/push/${TXID}`,
            () => json(status('waiting')),
            () => json(status('approved')),
          )
          .on('GET', '/api/me/devices', () => json({ devices: [phone] })),
    });
    const dialog = await removeToken(user);
    await user.click(within(dialog).getByRole('radio', { name: 'A push to my phone (approve it on the phone)' }));
    expect(within(dialog).getByText("We will send a push to “Bob's phone”. Approve it on the phone.")).toBeInTheDocument();
    expect(within(dialog).queryByRole('textbox', { name: 'Code from your device' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Send a push' }));

    expect(await screen.findByText('“Key ring token” has been removed.', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/me/step-up/push').map((c) => c.body)).toEqual([{ deviceId: phone.id }]);
    expect(api.callsTo('POST', '/api/me/step-up')).toEqual([]);
    expect(api.callsTo('DELETE', `/api/me/devices/${token.id}`)).toHaveLength(2);
    await waitFor(() => expect(queryDialog('Confirm it is you')).toBeUndefined());
  });

  it('keeps the dialog open with a plain answer when the push is denied; nothing is changed', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      profile: profile({ provider: 'duo' }),
      api: (a) =>
        a
          .on('DELETE', `/api/me/devices/${token.id}`, () => apiError(403, 'auth.step_up_required'))
          .on('POST', '/api/me/step-up/push', () => json(started, 202))
          .on('GET', `/api/me/step-up/push/${TXID}`, () => json(status('denied'))),
    });
    const dialog = await removeToken(user);
    await user.click(within(dialog).getByRole('radio', { name: 'A push to my phone (approve it on the phone)' }));
    await user.click(within(dialog).getByRole('button', { name: 'Send a push' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Push denied');
    expect(within(dialog).getByRole('button', { name: 'Send another push' })).toBeEnabled();
    expect(api.callsTo('DELETE', `/api/me/devices/${token.id}`)).toHaveLength(1);
  });

  it('stops asking about the push once the dialog is cancelled; the change is not made', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      profile: profile({ provider: 'duo' }),
      api: (a) =>
        a
          .on('DELETE', `/api/me/devices/${token.id}`, () => apiError(403, 'auth.step_up_required'))
          .on('POST', '/api/me/step-up/push', () => json(started, 202))
          .on('GET', `/api/me/step-up/push/${TXID}`, () => json(status('waiting'))),
    });
    const dialog = await removeToken(user);
    await user.click(within(dialog).getByRole('radio', { name: 'A push to my phone (approve it on the phone)' }));
    await user.click(within(dialog).getByRole('button', { name: 'Send a push' }));
    expect(await within(dialog).findByText(/Waiting for your answer/)).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo('GET', `/api/me/step-up/push/${TXID}`).length).toBeGreaterThan(1));
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(queryDialog('Confirm it is you')).toBeUndefined());
    const polls = api.callsTo('GET', `/api/me/step-up/push/${TXID}`).length;
    await new Promise((r) => setTimeout(r, 150));
    expect(api.callsTo('GET', `/api/me/step-up/push/${TXID}`).length).toBe(polls);
    expect(api.callsTo('DELETE', `/api/me/devices/${token.id}`)).toHaveLength(1);
  });

  it('lets the user choose which phone when several take pushes', async () => {
    const user = userEvent.setup();
    const second: Device = { ...phone, id: 'd9', name: 'Work phone' };
    const { api } = await renderPortal({
      profile: profile({ provider: 'duo', devices: [phone, second, token] }),
      api: (a) =>
        a
          .on('DELETE', `/api/me/devices/${token.id}`, () => apiError(403, 'auth.step_up_required'))
          .on('POST', '/api/me/step-up/push', () => json({ ...started, deviceId: 'd9' }, 202))
          .on('GET', `/api/me/step-up/push/${TXID}`, () => json({ ...status('timeout'), deviceId: 'd9' })),
    });
    const dialog = await removeToken(user);
    await user.click(within(dialog).getByRole('radio', { name: 'A push to my phone (approve it on the phone)' }));
    await user.selectOptions(within(dialog).getByLabelText('Phone to send the push to'), 'd9');
    await user.click(within(dialog).getByRole('button', { name: 'Send a push' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('No answer in time');
    expect(api.callsTo('POST', '/api/me/step-up/push').map((c) => c.body)).toEqual([{ deviceId: 'd9' }]);
  });

  it('offers no push when the MFA service cannot send them', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      api: (a) =>
        a
          .on('GET', '/api/me/capabilities', () => json(capabilitiesWithoutPush()))
          .on('DELETE', `/api/me/devices/${token.id}`, () => apiError(403, 'auth.step_up_required')),
    });
    const dialog = await removeToken(user);
    await waitFor(() => expect(api.callsTo('GET', '/api/me/capabilities')).toHaveLength(1));
    expect(within(dialog).queryByRole('radio', { name: 'A push to my phone (approve it on the phone)' })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('radio', { name: 'A code from my authenticator app or hardware token' })).toBeInTheDocument();
  });
});
