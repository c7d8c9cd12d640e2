import '../../lib/test/setup';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Device, PushStateName, PushTransaction } from '@mfa-portal/shared';
import { pushPolling } from '../../lib/push/push-polling';
import { findDialog } from '../../lib/test/dialogs';
import { apiError, fakeEventStreams, json, type FakeApi } from '../../lib/test/fake-api';
import { builtinWithApp, pixel } from '../../lib/test/portal-authenticator';
import { renderPortal } from '../../test/render-portal';
import { profile, token } from '../../test/fixtures';

/** A phone in the portal's own app: named as such, checked by a push with number matching, told over SSE. */

const authy: Device = { ...token, id: 'd8', kind: 'authenticator', name: 'Authy', serial: null, tokenType: null };
const TXID = '11111111-2222-4333-8444-555555555555';
const tx = (state: PushStateName): PushTransaction => ({
  txid: TXID,
  deviceId: pixel.id,
  state,
  startedAt: '2025-05-01T12:00:00.000Z',
  expiresAt: '2025-05-01T12:01:00.000Z',
  completedAt: state === 'waiting' ? null : '2025-05-01T12:00:10.000Z',
});
const PUSH = `/api/me/devices/${pixel.id}/push`;
const POLL = `${PUSH}/${TXID}`;
const EVENTS = `/api/me/push/${TXID}/events`;
const DIALOG = 'Check that “Portal Authenticator on Pixel 8” works';

afterEach(() => {
  pushPolling.intervalMs = 2000;
});

async function render(api: (a: FakeApi) => void) {
  return renderPortal({
    profile: profile({ devices: [pixel, authy, token] }),
    api: (a) => {
      a.on('GET', '/api/me/capabilities', builtinWithApp).on('POST', PUSH, () => json({ ...tx('waiting'), verificationCode: '42' }, 202));
      api(a);
    },
  });
}

describe('a phone with Portal Authenticator', () => {
  it('is listed as "Portal Authenticator on Pixel 8" with its types, while a third-party app stays an authenticator app', async () => {
    await render(() => undefined);
    const item = await screen.findByRole('article', { name: 'Portal Authenticator on Pixel 8' });
    expect(item).toHaveTextContent('TypePhone with Portal Authenticator (push and passcodes)');
    expect(item).toHaveTextContent('Can be used forPush, Passcode');
    expect(within(item).getByRole('button', { name: 'Check it works: “Portal Authenticator on Pixel 8”' })).toBeInTheDocument();
    expect(within(item).getByRole('button', { name: 'Rename “Portal Authenticator on Pixel 8”' })).toBeInTheDocument();
    const app = screen.getByRole('article', { name: 'Authy' });
    expect(app).toHaveTextContent('TypeAuthenticator app');
    expect(app).toHaveTextContent('Can be used forPasscode');
  });

  describe('checked by a push', () => {
    beforeEach(() => {
      // Polling so slow that only the server's event can show the answer in time.
      pushPolling.intervalMs = 60_000;
    });

    it('shows the number to type in the app, and the approval as soon as the server says so', async () => {
      const user = userEvent.setup();
      const streams = fakeEventStreams();
      const { api } = await render((a) =>
        a
          .on(
            'GET',
            POLL,
            () => json(tx('waiting')),
            () => json(tx('approved')),
          )
          .on('GET', EVENTS, streams.handler),
      );
      await user.click(await screen.findByRole('button', { name: 'Check it works: “Portal Authenticator on Pixel 8”' }));
      const dialog = await findDialog(DIALOG);
      await user.click(within(dialog).getByRole('button', { name: 'Send a push' }));
      const code = await within(dialog).findByRole('group', { name: 'Number to enter on the phone' });
      expect(code).toHaveTextContent('Type this number in Portal Authenticator on Pixel 8:');
      expect(within(code).getByText('42')).toHaveClass('push-code__value');

      await waitFor(() => expect(streams.live).toBe(1));
      const [events] = api.callsTo('GET', EVENTS);
      expect(events?.headers.get('Authorization')).toMatch(/^Bearer api-token-\d+$/);
      expect(events?.headers.get('Accept')).toBe('text/event-stream');

      streams.send('state', { state: 'approved' });
      expect(await within(dialog).findByText('Push approved', {}, { timeout: 1000 })).toBeInTheDocument();
      // Answered: the stream is closed.
      await waitFor(() => expect(streams.live).toBe(0));
      expect(api.callsTo('GET', POLL)).toHaveLength(2);
    });

    it('keeps listening while the closed dialog still watches the push, and stops once it is answered', async () => {
      const user = userEvent.setup();
      const streams = fakeEventStreams();
      await render((a) =>
        a
          .on(
            'GET',
            POLL,
            () => json(tx('waiting')),
            () => json(tx('approved')),
          )
          .on('GET', EVENTS, streams.handler),
      );
      await user.click(await screen.findByRole('button', { name: 'Check it works: “Portal Authenticator on Pixel 8”' }));
      const dialog = await findDialog(DIALOG);
      await user.click(within(dialog).getByRole('button', { name: 'Send a push' }));
      await waitFor(() => expect(streams.live).toBe(1));
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      expect(streams.live).toBe(1);
      streams.send('state', { state: 'approved' });
      expect(
        await screen.findByText('It was approved: “Portal Authenticator on Pixel 8” works.', {}, { timeout: 1000 }),
      ).toBeInTheDocument();
      await waitFor(() => expect(streams.live).toBe(0));
    });
  });

  it('falls back to polling, saying nothing, when the event stream is refused', async () => {
    pushPolling.intervalMs = 20;
    const user = userEvent.setup();
    const { api } = await render((a) =>
      a
        .on(
          'GET',
          POLL,
          () => json(tx('waiting')),
          () => json(tx('waiting')),
          () => json(tx('approved')),
        )
        .on('GET', EVENTS, () => apiError(404, 'route.not_found')),
    );
    await user.click(await screen.findByRole('button', { name: 'Check it works: “Portal Authenticator on Pixel 8”' }));
    const dialog = await findDialog(DIALOG);
    await user.click(within(dialog).getByRole('button', { name: 'Send a push' }));
    expect(await within(dialog).findByText('Push approved', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(api.callsTo('GET', EVENTS).length).toBeGreaterThanOrEqual(1);
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
  });
});
