import '../../lib/test/setup';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Campaign, CampaignProgress } from '@mfa-portal/shared';
import { apiError, json } from '../../lib/test/fake-api';
import { renderPortal } from '../../test/render-portal';
import { adminProfile } from './test-fixtures';

// recharts measures its container with ResizeObserver, which jsdom lacks: the bars are drawn in the
// browser journey; here the text alternative of the chart (its summary and table) is what is checked.
vi.mock('./components/CampaignProgressChart', () => ({ default: () => <svg data-testid="campaign-chart" /> }));
vi.mock('./components/CoverageChart', () => ({ default: () => <svg data-testid="coverage-chart" /> }));

beforeAll(async () => {
  await import('./AdminArea');
  await import('./routes/ReportsPage');
});

const GROUP = { id: '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b', name: 'Campaign pilot', memberCount: 2 };
const progress = (over: Partial<CampaignProgress> = {}): CampaignProgress => ({
  inScope: 10,
  enrolled: 4,
  overdue: 1,
  snoozed: 2,
  reminded: 1,
  mailed: 2,
  waiting: 0,
  ...over,
});
const campaign = (over: Partial<Campaign> = {}): Campaign => ({
  id: '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b',
  target: { kind: 'group', id: GROUP.id, name: GROUP.name },
  requirement: 'device',
  deadline: '2030-03-31T22:59:00.000Z',
  reminderIntervalDays: 3,
  maxReminders: 3,
  maxSnoozes: 3,
  snoozeDays: 1,
  state: 'active',
  startedBy: 'admin@example.com',
  startedAt: '2030-03-01T09:00:00.000Z',
  endedBy: null,
  endedAt: null,
  progress: progress(),
  ...over,
});

describe('enrolment campaigns', () => {
  it('show their progress on the reports page as a chart described in words, with the same figures as a table', async () => {
    await renderPortal({
      path: '/admin/reports',
      profile: adminProfile('solution_admin'),
      api: (a) =>
        a.on('GET', '/api/admin/campaigns', () =>
          json({ campaigns: [campaign(), campaign({ id: 'x', state: 'ended' })], emailEnabled: true }),
        ),
    });
    const section = await screen.findByRole('region', { name: 'Enrolment campaigns' });
    const chart = await within(section).findByRole('img');
    expect(chart).toHaveAccessibleName('1 campaign running: 4 of its 10 people have what it asks.');
    const table = within(section).getByRole('table', { name: 'Progress of the running campaigns' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Group or unit', 'Deadline', 'People', 'Enrolled', 'Overdue', 'Put off', 'Reminded', 'E-mailed', 'Not e-mailed yet']);
    const row = within(table).getByRole('row', { name: /Campaign pilot/ });
    expect(
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent)
        .slice(1),
    ).toEqual(['10', '4', '1', '2', '1', '2', '0']);
    // The ended campaign is not among the running ones.
    expect(within(table).getAllByRole('row')).toHaveLength(2);
  });

  it('says so on the reports page when none is running, with the way to start one', async () => {
    await renderPortal({ path: '/admin/reports', profile: adminProfile('solution_admin') });
    const section = await screen.findByRole('region', { name: 'Enrolment campaigns' });
    expect(await within(section).findByText('No campaign is running.')).toBeInTheDocument();
    expect(within(section).getByRole('link', { name: 'Campaigns' })).toHaveAttribute('href', '/admin/campaigns');
    expect(within(section).queryByRole('img')).not.toBeInTheDocument();
  });

  it('start on a directory group chosen by name, sending the settings; a refusal says why, naming the group', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      path: '/admin/campaigns',
      profile: adminProfile('solution_admin'),
      api: (a) =>
        a
          .on('GET', '/api/admin/directory-groups', () => json({ groups: [GROUP], more: false }))
          .on('GET', '/api/admin/units', () => json({ units: [] }))
          .on(
            'POST',
            '/api/admin/campaigns',
            () => apiError(400, 'campaign.target_empty', { field: 'target.id', reason: 'the directory group “Campaign pilot” is empty' }),
            () => json(campaign(), 201),
          ),
    });
    await user.click(await screen.findByRole('button', { name: 'Start a campaign' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Start a campaign' })).toHaveFocus();
    const submit = screen.getByRole('button', { name: 'Start the campaign' });
    expect(submit).toBeDisabled();
    await user.type(screen.getByLabelText('Find a group'), 'pilot');
    await user.click(await screen.findByRole('button', { name: 'Choose Campaign pilot' }));
    await user.clear(screen.getByLabelText('Reminders after the first e-mail, at most'));
    await user.type(screen.getByLabelText('Reminders after the first e-mail, at most'), '2');
    await user.click(screen.getByRole('button', { name: 'Start the campaign' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('That group or unit has nobody in it');
    expect(screen.getByRole('alert')).toHaveTextContent('“Campaign pilot” is empty');
    await user.click(screen.getByRole('button', { name: 'Start the campaign' }));
    expect(await screen.findByText(/The campaign for Campaign pilot has started/)).toBeInTheDocument();
    const [first] = api.callsTo('POST', '/api/admin/campaigns');
    expect(first?.body).toMatchObject({
      target: { kind: 'group', id: GROUP.id },
      requirement: 'device',
      reminderIntervalDays: 3,
      maxReminders: 2,
      maxSnoozes: 3,
      snoozeDays: 1,
    });
    expect(Date.parse((first?.body as { deadline: string }).deadline)).toBeGreaterThan(Date.now());
  });

  it('end after saying what that changes', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      path: '/admin/campaigns',
      profile: adminProfile('solution_admin'),
      api: (a) =>
        a
          .on('GET', '/api/admin/campaigns', () => json({ campaigns: [campaign()], emailEnabled: false }))
          .on('POST', `/api/admin/campaigns/${campaign().id}/end`, () => json(campaign({ state: 'ended' }))),
    });
    expect(await screen.findByText('E-mail is not set up')).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Enrolment campaigns' });
    expect(table).toHaveTextContent('4 of 10 people have a device');
    expect(table).toHaveTextContent('1 overdue, 2 put it off, 1 reminded, 2 e-mailed');
    await user.click(within(table).getByRole('button', { name: 'End the campaign for Campaign pilot' }));
    expect(within(table).getByRole('group', { name: /Nobody is e-mailed again/ })).toBeInTheDocument();
    await user.click(within(table).getByRole('button', { name: 'End the campaign' }));
    expect(await screen.findByText('The campaign for Campaign pilot has ended.')).toBeInTheDocument();
    expect(api.callsTo('POST', `/api/admin/campaigns/${campaign().id}/end`)).toHaveLength(1);
  });

  it('are for Solution Administrators only', async () => {
    const { api } = await renderPortal({ path: '/admin/campaigns', profile: adminProfile('helpdesk') });
    expect(await screen.findByRole('heading', { level: 1, name: 'Not available for your role' })).toBeInTheDocument();
    expect(api.callsTo('GET', '/api/admin/campaigns')).toEqual([]);
  });
});
