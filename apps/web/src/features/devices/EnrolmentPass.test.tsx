import '../../lib/test/setup';
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiError, json } from '../../lib/test/fake-api';
import { renderPortal } from '../../test/render-portal';

const required = { policy: 'pass', passRequired: true, windowEndsAt: null, passGrantedUntil: null };
const granted = { policy: 'pass', passRequired: false, windowEndsAt: null, passGrantedUntil: '2030-01-01T00:00:00.000Z' };

describe('add a device: the enrolment pass (first-device policy)', () => {
  it(
    'asks for the pass before offering devices, refuses a wrong one in plain words, and opens the choice with the right one',
    { timeout: 30_000 },
    async () => {
      const user = userEvent.setup();
      const { api } = await renderPortal({
        path: '/devices/add',
        api: (a) =>
          a
            .on('GET', '/api/me/enrolment-policy', () => json(required))
            .on(
              'POST',
              '/api/me/enrolment-pass',
              () => apiError(400, 'enrolment_pass.invalid', { field: 'pass' }),
              () => json(granted),
            ),
      });
      expect(await screen.findByRole('heading', { name: 'Enter your enrolment pass' })).toBeInTheDocument();
      expect(screen.queryByRole('link', { name: 'Add an authenticator app' })).not.toBeInTheDocument();

      await user.type(screen.getByLabelText('Enrolment pass'), 'WRNG-PASS-0000-0000');
      await user.click(screen.getByRole('button', { name: 'Continue' }));
      expect(
        await screen.findByText('That enrolment pass is not valid. It may have expired, been used up or been revoked.'),
      ).toBeInTheDocument();

      await user.clear(screen.getByLabelText('Enrolment pass'));
      await user.type(screen.getByLabelText('Enrolment pass'), ' abcd-efgh-jkmn-pqrs ');
      await user.click(screen.getByRole('button', { name: 'Continue' }));
      expect(await screen.findByRole('link', { name: 'Add an authenticator app' })).toBeInTheDocument();
      expect(screen.queryByRole('heading', { name: 'Enter your enrolment pass' })).not.toBeInTheDocument();
      expect(api.callsTo('POST', '/api/me/enrolment-pass').map((c) => c.body)).toEqual([
        { pass: 'WRNG-PASS-0000-0000' },
        { pass: 'abcd-efgh-jkmn-pqrs' },
      ]);
    },
  );
});
