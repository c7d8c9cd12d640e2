import '../../lib/test/setup';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Device, PushStateName, PushTransaction } from '@mfa-portal/shared';
import { pushPolling } from '../../lib/push/push-polling';
import { findDialog, queryDialog } from '../../lib/test/dialogs';
import { apiError, capabilitiesWithoutPush, json } from '../../lib/test/fake-api';
import { renderPortal } from '../../test/render-portal';
import { phone, profile, token } from '../../test/fixtures';

/** "Check it works" with a push (issue 6): offered only when the MFA service sends pushes. */

const tx = (state: PushStateName): PushTransaction => ({
  txid: '11111111-2222-4333-8444-555555555555',
  deviceId: phone.id,
  state,
  startedAt: '2025-05-01T12:00:00.000Z',
  expiresAt: '2025-05-01T12:02:00.000Z',
  completedAt: state === 'waiting' ? null : '2025-05-01T12:00:10.000Z',
});
const pushPath = `/api/me/devices/${phone.id}/push`;
const pollPath = `${pushPath}/${tx('waiting').txid}`;
const DIALOG = "Check that “Bob's phone” works";
const BUTTON = "Check it works: “Bob's phone”";

beforeEach(() => {
  pushPolling.intervalMs = 20;
});
afterEach(() => {
  pushPolling.intervalMs = 2000;
});

async function openDialog(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: BUTTON }));
  return findDialog(DIALOG);
}

describe('test a phone with a push', () => {
  it('sends a push, shows progress while waiting, then says plainly that it was approved', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      profile: profile({ provider: 'duo' }),
      api: (a) =>
        a
          .on('POST', pushPath, () => json({ ...tx('waiting'), verificationCode: null }, 202))
          .on(
            'GET',
            pollPath,
            () => json(tx('waiting')),
            () => json(tx('waiting')),
            () => json(tx('approved')),
          ),
    });
    const dialog = await openDialog(user);
    expect(within(dialog).getByRole('heading', { name: 'Approve a push' })).toBeInTheDocument();
    // The passcode stays available for a phone that shows codes too.
    expect(within(dialog).getByLabelText('Code from the device')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Send a push' }));
    expect(await within(dialog).findByText(/Push sent to “Bob's phone”\. .*Waiting for your answer/)).toBeInTheDocument();
    expect(await within(dialog).findByText('Push approved', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(within(dialog).getByText("You approved the push on “Bob's phone”.")).toBeInTheDocument();
    expect(api.callsTo('POST', pushPath)).toHaveLength(1);
    const polls = api.callsTo('GET', pollPath).length;
    expect(polls).toBeGreaterThanOrEqual(3);
    // Polling stops once answered.
    await new Promise((r) => setTimeout(r, 100));
    expect(api.callsTo('GET', pollPath).length).toBe(polls);
    expect(within(dialog).getByRole('button', { name: 'Send another push' })).toBeEnabled();
  });

  it('with number matching, shows the number to enter on the phone while it waits', async () => {
    const user = userEvent.setup();
    // The phone answers when the test says so: a loaded machine must not see the answer before the number.
    let answered = false;
    await renderPortal({
      profile: profile({ provider: 'duo' }),
      api: (a) =>
        a
          .on('POST', pushPath, () => json({ ...tx('waiting'), verificationCode: '376' }, 202))
          .on('GET', pollPath, () => json(tx(answered ? 'approved' : 'waiting'))),
    });
    const dialog = await openDialog(user);
    await user.click(within(dialog).getByRole('button', { name: 'Send a push' }));
    const code = await within(dialog).findByRole('group', { name: 'Number to enter on the phone' });
    expect(within(code).getByText('376')).toBeInTheDocument();
    expect(within(code).getByText(/enter this number/)).toBeInTheDocument();
    answered = true;
    expect(await within(dialog).findByText('Push approved', {}, { timeout: 3000 })).toBeInTheDocument();
    // Once answered, the number is gone.
    expect(within(dialog).queryByText('376')).not.toBeInTheDocument();
  });

  it.each([
    ['denied', 'Push denied', /denied on the phone/],
    ['fraud', 'Push reported as not you', /suspicious request/],
    ['timeout', 'No answer in time', /not answered within 1 minute/],
  ] as const)('says unambiguously when the push was %s', async (state, title, body) => {
    const user = userEvent.setup();
    await renderPortal({
      profile: profile({ provider: 'duo' }),
      api: (a) =>
        a.on('POST', pushPath, () => json({ ...tx('waiting'), verificationCode: null }, 202)).on('GET', pollPath, () => json(tx(state))),
    });
    const dialog = await openDialog(user);
    await user.click(within(dialog).getByRole('button', { name: 'Send a push' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(title);
    expect(alert).toHaveTextContent(body);
    expect(within(dialog).queryByText('Push approved')).not.toBeInTheDocument();
  });

  it('keeps watching a push the user closed the dialog on, and tells its outcome in a notification', async () => {
    const user = userEvent.setup();
    let answered = false;
    const { api } = await renderPortal({
      profile: profile({ provider: 'duo' }),
      api: (a) =>
        a
          .on('POST', pushPath, () => json({ ...tx('waiting'), verificationCode: null }, 202))
          .on('GET', pollPath, () => json(tx(answered ? 'approved' : 'waiting'))),
    });
    const dialog = await openDialog(user);
    await user.click(within(dialog).getByRole('button', { name: 'Send a push' }));
    await waitFor(() => expect(api.callsTo('GET', pollPath).length).toBeGreaterThan(1));
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(queryDialog(DIALOG)).toBeUndefined());
    expect(screen.queryByText("Test push to “Bob's phone”")).not.toBeInTheDocument();

    // Later, the phone approves it: a notification says so, though the dialog is gone.
    answered = true;
    expect(await screen.findByText("Test push to “Bob's phone”", {}, { timeout: 3000 })).toBeInTheDocument();
    expect(screen.getByText("It was approved: “Bob's phone” works.")).toBeInTheDocument();
    // Told once: polling stops with the answer.
    const polls = api.callsTo('GET', pollPath).length;
    await new Promise((r) => setTimeout(r, 150));
    expect(api.callsTo('GET', pollPath).length).toBe(polls);
  });

  it('tells a denied push in the notification too', async () => {
    const user = userEvent.setup();
    let answered = false;
    await renderPortal({
      profile: profile({ provider: 'duo' }),
      api: (a) =>
        a
          .on('POST', pushPath, () => json({ ...tx('waiting'), verificationCode: null }, 202))
          .on('GET', pollPath, () => json(tx(answered ? 'denied' : 'waiting'))),
    });
    const dialog = await openDialog(user);
    await user.click(within(dialog).getByRole('button', { name: 'Send a push' }));
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(queryDialog(DIALOG)).toBeUndefined());
    answered = true;
    expect(await screen.findByText('It was denied on the phone, so the check did not pass.', {}, { timeout: 3000 })).toBeInTheDocument();
  });

  it('shows the translated reason when the push cannot be sent', async () => {
    const user = userEvent.setup();
    await renderPortal({
      profile: profile({ provider: 'duo' }),
      api: (a) => a.on('POST', pushPath, () => apiError(409, 'device.verification_unsupported')),
    });
    const dialog = await openDialog(user);
    await user.click(within(dialog).getByRole('button', { name: 'Send a push' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The push could not be sent');
  });

  it('offers no push when the MFA service cannot send them, even for a phone recorded with push', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({ api: (a) => a.on('GET', '/api/me/capabilities', () => json(capabilitiesWithoutPush())) });
    const dialog = await openDialog(user);
    await waitFor(() => expect(api.callsTo('GET', '/api/me/capabilities')).toHaveLength(1));
    expect(within(dialog).queryByRole('button', { name: 'Send a push' })).not.toBeInTheDocument();
    expect(within(dialog).getByLabelText('Code from the device')).toBeInTheDocument();
  });

  it('a phone that only takes pushes gets "Check it works" only where pushes can be sent', async () => {
    const pushOnly: Device = { ...phone, capabilities: ['push'] };
    await renderPortal({ profile: profile({ provider: 'duo', devices: [pushOnly, token] }) });
    expect(await screen.findByRole('button', { name: BUTTON })).toBeInTheDocument();
  });

  it('hides "Check it works" for a push-only phone when pushes cannot be sent', async () => {
    const pushOnly: Device = { ...phone, capabilities: ['push'] };
    const { api } = await renderPortal({
      profile: profile({ devices: [pushOnly, token] }),
      api: (a) => a.on('GET', '/api/me/capabilities', () => json(capabilitiesWithoutPush())),
    });
    await waitFor(() => expect(api.callsTo('GET', '/api/me/capabilities')).toHaveLength(1));
    expect(await screen.findByRole('button', { name: 'Check it works: “Key ring token”' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: BUTTON })).not.toBeInTheDocument();
  });
});
