import '../../lib/test/setup';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Device } from '@mfa-portal/shared';
import { findDialog } from '../../lib/test/dialogs';
import { apiError, json } from '../../lib/test/fake-api';
import { renderPortal } from '../../test/render-portal';

const claimed: Device = {
  id: 'd7',
  kind: 'hardware_token',
  name: 'Desk token',
  capabilities: ['passcode'],
  phoneNumber: null,
  platform: null,
  serial: 'D100-0002',
  tokenType: 'Duo D100',
  createdAt: '2025-05-01T14:06:00.000Z',
  lastUsedAt: null,
};

async function fill(user: ReturnType<typeof userEvent.setup>, values: { serial: string; first: string; second: string; name?: string }) {
  await user.type(screen.getByLabelText('Serial number'), values.serial);
  await user.type(screen.getByLabelText('First code'), values.first);
  await user.type(screen.getByLabelText('Second code'), values.second);
  if (values.name) await user.type(screen.getByLabelText('Name for this token (optional)'), values.name);
}

describe('add a Duo D100 hardware token', () => {
  it('explains where the serial is, then claims the token with the serial and two codes', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({ path: '/devices/add/token' });
    expect(screen.getByRole('heading', { level: 1, name: 'Add a hardware token (Duo D100)' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Where to find the serial number' })).toBeInTheDocument();
    expect(screen.getByText(/The serial number is the series of letters and digits printed on the back/)).toBeInTheDocument();
    api
      .on('POST', '/api/me/devices/hardware-token', () => json(claimed, 201))
      .on('GET', '/api/me/devices', () => json({ devices: [claimed] }));

    await fill(user, { serial: ' D100-0002 ', first: '123456', second: '654 321', name: 'Desk token' });
    await user.click(screen.getByRole('button', { name: 'Add the token' }));

    expect(await screen.findByText('Your hardware token “Desk token” has been added.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/me/devices/hardware-token')[0]?.body).toEqual({
      serial: 'D100-0002',
      codes: ['123456', '654321'],
      name: 'Desk token',
    });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
  });

  it('checks the form before sending anything', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({ path: '/devices/add/token' });
    await user.type(screen.getByLabelText('First code'), '12');
    await user.click(screen.getByRole('button', { name: 'Add the token' }));
    expect(await screen.findByText('Please enter the serial number.')).toBeInTheDocument();
    expect(screen.getByText('The code is 6 digits, for example 123456.')).toBeInTheDocument();
    expect(screen.getByText('Please enter the Second code.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/me/devices/hardware-token')).toHaveLength(0);
  });

  it('shows the translated reason when the serial is unknown', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({ path: '/devices/add/token' });
    api.on('POST', '/api/me/devices/hardware-token', () => apiError(404, 'token.not_found', { field: 'serial' }));
    await fill(user, { serial: 'D100-9999', first: '123456', second: '654321' });
    await user.click(screen.getByRole('button', { name: 'Add the token' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The token was not added');
    expect(alert).toHaveTextContent('No hardware token has that serial number. Please check the number printed on the back of the token.');
    expect(api.callsTo('POST', '/api/me/devices/hardware-token')[0]?.body).toEqual({ serial: 'D100-9999', codes: ['123456', '654321'] });
  });

  it('retries the claim after a step-up with what the user typed', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({ path: '/devices/add/token' });
    api
      .on(
        'POST',
        '/api/me/devices/hardware-token',
        () => apiError(403, 'auth.step_up_required'),
        () => json(claimed, 201),
      )
      .on('POST', '/api/me/step-up', () =>
        json({
          active: true,
          method: 'passcode',
          verifiedAt: '2025-05-01T14:00:00.000Z',
          expiresAt: '2025-05-01T14:05:00.000Z',
          maxAgeSeconds: 300,
        }),
      );
    await fill(user, { serial: 'D100-0002', first: '111111', second: '222222' });
    await user.click(screen.getByRole('button', { name: 'Add the token' }));
    const stepUp = await findDialog('Confirm it is you');
    await user.type(within(stepUp).getByLabelText('Code from your device'), '999999{Enter}');
    expect(await screen.findByText('Your hardware token “Desk token” has been added.')).toBeInTheDocument();
    const claims = api.callsTo('POST', '/api/me/devices/hardware-token');
    expect(claims).toHaveLength(2);
    expect(claims[1]?.body).toEqual(claims[0]?.body);
  });
});
