import '../../lib/test/setup';
import { afterEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CreateBypassCodesResponse, Device } from '@mfa-portal/shared';
import { findDialog } from '../../lib/test/dialogs';
import { apiError, json } from '../../lib/test/fake-api';
import { renderPortal } from '../../test/render-portal';
import { phone, profile, token } from '../../test/fixtures';

const stepUpOk = () =>
  json({
    active: true,
    method: 'passcode',
    verifiedAt: '2025-05-01T12:00:00.000Z',
    expiresAt: '2025-05-01T12:05:00.000Z',
    maxAgeSeconds: 300,
  });
const created: CreateBypassCodesResponse = {
  codes: [{ id: '0b6f7c1e-2222-4a2b-8c3d-000000000003', code: '123 456 789', expiresAt: '2025-05-02T12:00:00.000Z', usesLeft: 1 }],
  replaced: 0,
};
const heading = (name: string) => screen.findByRole('heading', { level: 2, name });

afterEach(() => sessionStorage.clear());

describe('self-service lost-device wizard', () => {
  it('does not ask again inside the step-up window: a step-up of this session a moment ago counts', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      path: '/devices/lost',
      api: (a) => a.on('GET', '/api/me/step-up', stepUpOk).on('GET', '/api/me/devices', () => json({ devices: [phone, token] })),
    });
    expect(await heading('Step 1: Confirm it is you')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Confirm it is me' }));
    expect(await heading('Step 2: Remove the lost device')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.callsTo('POST', '/api/me/step-up')).toHaveLength(0);
  });

  it("asks when the session has no fresh step-up (another session's does not count: the server says so)", async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      path: '/devices/lost',
      api: (a) => a.on('POST', '/api/me/step-up', stepUpOk).on('GET', '/api/me/devices', () => json({ devices: [phone, token] })),
    });
    await user.click(await screen.findByRole('button', { name: 'Confirm it is me' }));
    await user.type(within(await findDialog('Confirm it is you')).getByLabelText('Code from your device'), '123456{Enter}');
    expect(await heading('Step 2: Remove the lost device')).toBeInTheDocument();
    expect(api.callsTo('GET', '/api/me/step-up')).toHaveLength(1);
    expect(api.callsTo('POST', '/api/me/step-up')).toHaveLength(1);
  });

  it('confirms it is them, removes the lost device, gives one code, sends them to add a device and tests it', async () => {
    const user = userEvent.setup();
    let devices: Device[] = [phone, token];
    const { api } = await renderPortal({
      path: '/devices/lost',
      api: (a) =>
        a
          .on('POST', '/api/me/step-up', stepUpOk)
          .on('GET', '/api/me/devices', () => json({ devices }))
          .on('DELETE', `/api/me/devices/${phone.id}`, () => {
            devices = [token];
            return json(null, 204);
          })
          .on('POST', '/api/me/bypass-codes', () => json(created, 201))
          .on('POST', '/api/me/devices/d9/test', () =>
            json({ verified: true, device: devices.find((d) => d.id === 'd9'), verifiedAt: '2025-05-01T12:10:00.000Z' }),
          ),
    });
    expect(await heading('Step 1: Confirm it is you')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Confirm it is me' }));
    await user.type(within(await findDialog('Confirm it is you')).getByLabelText('Code from your device'), '123456{Enter}');

    expect(await heading('Step 2: Remove the lost device')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: "Bob's phone" }));
    await user.click(screen.getByRole('button', { name: 'Remove it' }));

    expect(await heading('Step 3: A bypass code for the next day')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create the code' }));
    const panel = await screen.findByRole('region', { name: 'Your new bypass code' });
    expect(panel).toHaveTextContent('123 456 789');
    expect(api.callsTo('POST', '/api/me/bypass-codes')[0]?.body).toEqual({
      count: 1,
      validitySeconds: 86_400,
      reuseCount: 1,
      replaceExisting: false,
    });
    await user.click(within(panel).getByRole('button', { name: 'Continue: add a new device' }));

    expect(await heading('Step 4: Add a new device')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add an authenticator app' })).toHaveAttribute('href', '/devices/add/authenticator');
    // They add an app (on its own page) and come back: the new device comes from the server.
    devices = [
      token,
      {
        ...token,
        id: 'd9',
        kind: 'authenticator',
        name: 'New phone app',
        serial: null,
        tokenType: null,
        createdAt: new Date(Date.now() + 1000).toISOString(),
      },
    ];
    await user.click(screen.getByRole('link', { name: 'Add an authenticator app' }));
    await screen.findByRole('heading', { level: 1, name: 'Add an authenticator app' });
    await user.click(screen.getByRole('link', { name: 'Overview' }));
    await user.click(await screen.findByRole('link', { name: 'Lost a device?' }));

    expect(await heading('Step 5: Test the new device')).toBeInTheDocument();
    expect(screen.getByLabelText('New device')).toHaveDisplayValue('New phone app');
    await user.type(screen.getByLabelText('Code from the device'), '654321{Enter}');
    expect(await screen.findByText("“Bob's phone” no longer works for your account, and “New phone app” works.")).toBeInTheDocument();
  });

  it('shows a refusal in words and stays on the step', async () => {
    const user = userEvent.setup();
    sessionStorage.setItem('mfa-portal.self-lost-device.bob@example.com', JSON.stringify({ verifiedAt: '2025-05-01T12:00:00.000Z' }));
    await renderPortal({
      path: '/devices/lost',
      api: (a) => a.on('DELETE', `/api/me/devices/${token.id}`, () => apiError(503, 'mfa.provider_unavailable')),
    });
    expect(await heading('Step 2: Remove the lost device')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Key ring token' }));
    await user.click(screen.getByRole('button', { name: 'Remove it' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The multi-factor service is not answering.');
    expect(screen.getByRole('heading', { level: 2, name: 'Step 2: Remove the lost device' })).toBeInTheDocument();
  });

  it('is not offered to holders of a protected account', async () => {
    const protectedProfile = profile();
    protectedProfile.user = { ...protectedProfile.user, isProtected: true };
    await renderPortal({ path: '/devices/lost', profile: protectedProfile });
    expect(await screen.findByRole('heading', { level: 1, name: 'Your account is protected' })).toBeInTheDocument();
  });

  it('lets a protected account with no device add its first one, asking for its enrolment pass', async () => {
    const first = profile({ devices: [] });
    first.user = { ...first.user, isProtected: true };
    await renderPortal({
      path: '/devices/add',
      profile: first,
      api: (a) =>
        a.on('GET', '/api/me/enrolment-policy', () =>
          json({ policy: 'open', passRequired: true, windowEndsAt: null, passGrantedUntil: null }),
        ),
    });
    expect(await screen.findByRole('heading', { name: 'Enter your enrolment pass' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { level: 1, name: 'Your account is protected' })).not.toBeInTheDocument();
  });
});
