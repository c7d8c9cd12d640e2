import '../../lib/test/setup';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MyCampaign } from '@mfa-portal/shared';
import { apiError, json } from '../../lib/test/fake-api';
import { renderPortal } from '../../test/render-portal';

const campaign = (overrides: Partial<MyCampaign> = {}): MyCampaign => ({
  id: '0d4c7a8e-7d0e-4b4f-9d0c-2f1a3b4c5d6e',
  requirement: 'device',
  deadline: '2030-03-31T17:00:00.000Z',
  overdue: false,
  maxSnoozes: 2,
  snoozesLeft: 2,
  snoozeDays: 1,
  ...overrides,
});

const bannerOf = () => screen.findByRole('region', { name: /add a sign-in device/i });

describe('enrolment campaign banner', () => {
  it('shows the deadline, "Add a device" and "Remind me later" with the snoozes left', async () => {
    await renderPortal({ api: (api) => api.on('GET', '/api/me/campaign', () => json({ campaign: campaign() })) });
    const banner = await bannerOf();
    expect(within(banner).getByRole('heading', { level: 2 })).toHaveTextContent(/Please add a sign-in device by .*2030/);
    expect(banner).toHaveTextContent('you have none yet');
    expect(banner).toHaveTextContent('You can put this off 2 more times, for 1 day each time.');
    expect(within(banner).getByRole('link', { name: 'Add a device' })).toHaveAttribute('href', '/devices/add');
    expect(within(banner).getByRole('button', { name: 'Remind me later' })).toBeInTheDocument();
  });

  it('snoozes for the person: the banner goes, the page says when it comes back, and the focus moves to the page', async () => {
    const { api } = await renderPortal({
      api: (api) => {
        api.on('GET', '/api/me/campaign', () => json({ campaign: campaign() }));
        api.on('POST', `/api/me/campaign/${campaign().id}/snooze`, () => json({ campaign: null }));
      },
    });
    const banner = await bannerOf();
    await userEvent.click(within(banner).getByRole('button', { name: 'Remind me later' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: /add a sign-in device/i })).not.toBeInTheDocument());
    expect(await screen.findByText('We will remind you again in 1 day.')).toBeInTheDocument();
    expect(document.activeElement).toBe(document.getElementById('main'));
    const [call] = api.callsTo('POST', `/api/me/campaign/${campaign().id}/snooze`);
    expect(call?.body).toBeUndefined();
  });

  it('after the last snooze offers no "Remind me later", and says so', async () => {
    await renderPortal({ api: (api) => api.on('GET', '/api/me/campaign', () => json({ campaign: campaign({ snoozesLeft: 0 }) })) });
    const banner = await bannerOf();
    expect(within(banner).queryByRole('button', { name: 'Remind me later' })).not.toBeInTheDocument();
    expect(banner).toHaveTextContent('You have put this off as many times as allowed');
    expect(within(banner).getByRole('link', { name: 'Add a device' })).toBeInTheDocument();
  });

  it('past the deadline: says it is overdue, and cannot be put off', async () => {
    await renderPortal({
      api: (api) => api.on('GET', '/api/me/campaign', () => json({ campaign: campaign({ overdue: true, requirement: 'policy' }) })),
    });
    const banner = await screen.findByRole('region', { name: /The deadline to add a sign-in device was/ });
    expect(banner).toHaveTextContent('that its policy lets you use');
    expect(banner).toHaveTextContent('can no longer be put off');
    expect(within(banner).queryByRole('button', { name: 'Remind me later' })).not.toBeInTheDocument();
  });

  it('says why a refused snooze was refused, and keeps the banner', async () => {
    await renderPortal({
      api: (api) => {
        api.on('GET', '/api/me/campaign', () => json({ campaign: campaign({ snoozesLeft: 1 }) }));
        api.on('POST', `/api/me/campaign/${campaign().id}/snooze`, () => apiError(409, 'campaign.snooze_limit_reached'));
      },
    });
    const banner = await bannerOf();
    await userEvent.click(within(banner).getByRole('button', { name: 'Remind me later' }));
    expect(await within(banner).findByRole('alert')).toHaveTextContent('You have put this off as many times as allowed. Add a device now.');
  });

  it('shows nothing to someone no campaign asks anything of', async () => {
    await renderPortal();
    expect(await screen.findByRole('heading', { level: 1, name: 'Hello, Bob' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: /add a sign-in device/i })).not.toBeInTheDocument();
  });
});
