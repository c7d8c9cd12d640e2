import '../../lib/test/setup';
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MAX_BYPASS_VALIDITY_SECONDS, type BypassCodeInfo, type CreateBypassCodesResponse } from '@mfa-portal/shared';
import { findDialog } from '../../lib/test/dialogs';
import { apiError, json } from '../../lib/test/fake-api';
import { renderPortal } from '../../test/render-portal';
import { codesAsText } from '../../lib/bypass-codes/NewCodesPanel';

const live: BypassCodeInfo[] = [
  {
    id: '0b6f7c1e-1111-4a2b-8c3d-000000000001',
    createdAt: '2025-05-01T09:00:00.000Z',
    expiresAt: '2025-05-02T09:00:00.000Z',
    usesLeft: 1,
    reuseCount: 1,
    createdBy: 'bob@example.com',
  },
  {
    id: '0b6f7c1e-1111-4a2b-8c3d-000000000002',
    createdAt: '2025-05-01T10:30:00.000Z',
    expiresAt: '2025-05-03T10:30:00.000Z',
    usesLeft: 2,
    reuseCount: 3,
    createdBy: 'helpdesk@example.com',
  },
];

const created: CreateBypassCodesResponse = {
  codes: [
    { id: '0b6f7c1e-2222-4a2b-8c3d-000000000003', code: '123 456 789', expiresAt: '2025-05-03T12:00:00.000Z', usesLeft: 1 },
    { id: '0b6f7c1e-2222-4a2b-8c3d-000000000004', code: '987 654 321', expiresAt: '2025-05-03T12:00:00.000Z', usesLeft: 1 },
  ],
  replaced: 0,
};

const stepUpOk = () =>
  json({
    active: true,
    method: 'passcode',
    verifiedAt: '2025-05-01T12:00:00.000Z',
    expiresAt: '2025-05-01T12:05:00.000Z',
    maxAgeSeconds: 300,
  });

describe('bypass codes', () => {
  it('shows progress, then an empty state when there are none', async () => {
    let answer: (r: Response) => void = () => undefined;
    const pending = new Promise<Response>((resolve) => (answer = resolve));
    const user = userEvent.setup();
    const { api } = await renderPortal({ path: '/' });
    api.on('GET', '/api/me/bypass-codes', () => pending);
    await user.click(screen.getByRole('link', { name: 'Bypass codes' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Bypass codes' })).toBeInTheDocument();
    expect(screen.getByText('Loading your bypass codes...').closest('[role="status"]')).toBeInTheDocument();
    answer(json({ codes: [] }));
    expect(await screen.findByText('You have no bypass codes')).toBeInTheDocument();
  });

  it('lists live codes with expiry, uses and who created them', async () => {
    const { api } = await renderPortal({ path: '/help' });
    api.on('GET', '/api/me/bypass-codes', () => json({ codes: live }));
    await userEvent.setup().click(screen.getByRole('link', { name: 'Bypass codes' }));
    const list = await screen.findByRole('region', { name: 'Your bypass codes' });
    const items = await within(list).findAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Expires' + 'May 2, 2025, 9:00 AM');
    expect(items[0]).toHaveTextContent('Uses left1 of 1');
    expect(items[0]).toHaveTextContent('Created byYou');
    expect(items[1]).toHaveTextContent('helpdesk@example.com');
    expect(items[1]).toHaveTextContent('Service desk');
    expect(
      within(items[0]!).getByRole('button', { name: 'Revoke the code created May 1, 2025, 9:00 AM, expiring May 2, 2025, 9:00 AM' }),
    ).toBeInTheDocument();
  });

  it('offers one default in a sentence, the numbers behind "More options", and sends what the sentence says', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      path: '/bypass-codes',
      api: (a) =>
        a.on('GET', '/api/me/bypass-codes', () => json({ codes: [] })).on('POST', '/api/me/bypass-codes', () => json(created, 201)),
    });
    expect(screen.getByText('You will get 1 code. It works once and stays valid for 1 day.')).toBeInTheDocument();
    const more = screen.getByRole('button', { name: 'More options' });
    expect(more).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByLabelText('How many codes')).not.toBeVisible();
    await user.click(more);
    expect(screen.getByRole('button', { name: 'Fewer options' })).toHaveAttribute('aria-expanded', 'true');
    await user.clear(screen.getByLabelText('How many codes'));
    await user.type(screen.getByLabelText('How many codes'), '3');
    await user.selectOptions(screen.getByLabelText('Hours or days'), 'hours');
    await user.click(screen.getByRole('button', { name: 'Fewer options' }));
    expect(screen.getByText('You will get 3 codes. Each works once and stays valid for 1 hour.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create codes' }));
    await screen.findByRole('region', { name: 'Your 2 new bypass codes' });
    expect(api.callsTo('POST', '/api/me/bypass-codes')[0]?.body).toEqual({
      count: 3,
      validitySeconds: 3600,
      reuseCount: 1,
      replaceExisting: false,
    });
  });

  it('shows the options with the reason when one of them is refused', async () => {
    const user = userEvent.setup();
    await renderPortal({ path: '/bypass-codes', api: (a) => a.on('GET', '/api/me/bypass-codes', () => json({ codes: [] })) });
    await user.click(screen.getByRole('button', { name: 'More options' }));
    await user.clear(screen.getByLabelText('How many codes'));
    await user.click(screen.getByRole('button', { name: 'Fewer options' }));
    await user.click(screen.getByRole('button', { name: 'Create codes' }));
    expect(await screen.findByText('Please enter how many codes you want.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Fewer options' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('refuses a validity over 7 days before asking the server', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      path: '/bypass-codes',
      api: (a) => a.on('GET', '/api/me/bypass-codes', () => json({ codes: [] })),
    });
    await user.click(screen.getByRole('button', { name: 'More options' }));
    const amount = screen.getByLabelText('Number of hours or days the codes stay valid');
    await user.clear(amount);
    await user.type(amount, '8');
    await user.click(screen.getByRole('button', { name: 'Create codes' }));
    expect(await screen.findByText('Bypass codes can stay valid for at most 7 days. Please choose a shorter time.')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Hours or days'), 'hours');
    await user.clear(amount);
    await user.type(amount, String(7 * 24 + 1));
    await user.click(screen.getByRole('button', { name: 'Create codes' }));
    expect(await screen.findByText('Bypass codes can stay valid for at most 7 days. Please choose a shorter time.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/me/bypass-codes')).toHaveLength(0);
  });

  it('refuses more than 10 codes and more than 10 uses', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      path: '/bypass-codes',
      api: (a) => a.on('GET', '/api/me/bypass-codes', () => json({ codes: [] })),
    });
    await user.click(screen.getByRole('button', { name: 'More options' }));
    await user.clear(screen.getByLabelText('How many codes'));
    await user.type(screen.getByLabelText('How many codes'), '11');
    await user.clear(screen.getByLabelText('How many times each code works'));
    await user.type(screen.getByLabelText('How many times each code works'), '0');
    await user.click(screen.getByRole('button', { name: 'Create codes' }));
    expect(await screen.findAllByText('Choose a whole number from 1 to 10.')).toHaveLength(2);
    expect(api.callsTo('POST', '/api/me/bypass-codes')).toHaveLength(0);
  });

  it('creates codes after a step-up and shows them once, with copy, download and print; "I have saved them" hides them', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      path: '/bypass-codes',
      api: (a) =>
        a
          .on('GET', '/api/me/bypass-codes', () => json({ codes: [] }))
          .on(
            'POST',
            '/api/me/bypass-codes',
            () => apiError(403, 'auth.step_up_required'),
            () => json(created, 201),
          )
          .on('POST', '/api/me/step-up', stepUpOk),
    });
    await user.click(screen.getByRole('button', { name: 'More options' }));
    await user.clear(screen.getByLabelText('How many codes'));
    await user.type(screen.getByLabelText('How many codes'), '2');
    await user.clear(screen.getByLabelText('Number of hours or days the codes stay valid'));
    await user.type(screen.getByLabelText('Number of hours or days the codes stay valid'), '7');
    await user.click(screen.getByRole('button', { name: 'Create codes' }));
    await user.type(within(await findDialog('Confirm it is you')).getByLabelText('Code from your device'), '123456{Enter}');

    const panel = await screen.findByRole('region', { name: 'Your 2 new bypass codes' });
    expect(within(panel).getByRole('heading', { name: 'Your 2 new bypass codes' })).toHaveFocus();
    expect(within(panel).getByText('123 456 789')).toBeInTheDocument();
    expect(within(panel).getByText('987 654 321')).toBeInTheDocument();
    expect(panel).toHaveTextContent('This is the only time you will see these codes.');
    expect(panel).toHaveTextContent('Each code works once and expires on May 3, 2025, 12:00 PM.');
    const bodies = api.callsTo('POST', '/api/me/bypass-codes').map((c) => c.body);
    expect(bodies).toEqual([
      { count: 2, validitySeconds: MAX_BYPASS_VALIDITY_SECONDS, reuseCount: 1, replaceExisting: false },
      { count: 2, validitySeconds: MAX_BYPASS_VALIDITY_SECONDS, reuseCount: 1, replaceExisting: false },
    ]);

    await user.click(within(panel).getByRole('button', { name: 'Copy the codes' }));
    expect(await navigator.clipboard.readText()).toBe('123 456 789\n987 654 321');

    const createObjectURL = vi.fn((_blob: Blob) => 'blob:codes');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const clicks: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    });
    await user.click(within(panel).getByRole('button', { name: 'Download as a text file' }));
    expect(clicks).toEqual([expect.stringMatching(/^bypass-codes-\d{4}-\d{2}-\d{2}\.txt$/)]);
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(createObjectURL.mock.calls[0]![0]);
    });
    expect(text).toContain('Bypass codes for bob@example.com');
    expect(text).toContain('123 456 789\n987 654 321');

    const print = vi.fn();
    vi.stubGlobal('print', print);
    await user.click(within(panel).getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledTimes(1);
    expect(document.body).toHaveClass('printing-codes');
    window.dispatchEvent(new Event('afterprint'));
    expect(document.body).not.toHaveClass('printing-codes');

    await user.click(within(panel).getByRole('button', { name: 'I have saved them' }));
    expect(screen.queryByText('123 456 789')).not.toBeInTheDocument();
  });

  it('offers to replace existing codes and says how many were replaced', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      path: '/bypass-codes',
      api: (a) =>
        a
          .on('GET', '/api/me/bypass-codes', () => json({ codes: live }))
          .on('POST', '/api/me/bypass-codes', () => json({ ...created, replaced: 2 }, 201)),
    });
    await user.click(await screen.findByRole('checkbox', { name: 'Replace my existing codes' }));
    expect(screen.getByText('Your 2 existing codes will stop working. Leave this unticked to keep them.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create codes' }));
    expect(await screen.findByText('2 older codes were replaced and no longer work.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/me/bypass-codes')[0]?.body).toMatchObject({
      count: 1,
      validitySeconds: 86_400,
      replaceExisting: true,
    });
  });

  it('shows the server refusal in words', async () => {
    const user = userEvent.setup();
    await renderPortal({
      path: '/bypass-codes',
      api: (a) =>
        a
          .on('GET', '/api/me/bypass-codes', () => json({ codes: [] }))
          .on('POST', '/api/me/bypass-codes', () => apiError(409, 'bypass.too_many_live_codes')),
    });
    await user.click(screen.getByRole('button', { name: 'Create codes' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('No codes were created');
    expect(alert).toHaveTextContent('You already have the most bypass codes allowed. Replace or revoke some first.');
  });

  it('revokes a code after confirmation', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      path: '/bypass-codes',
      api: (a) =>
        a
          .on(
            'GET',
            '/api/me/bypass-codes',
            () => json({ codes: live }),
            () => json({ codes: live.slice(1) }),
          )
          .on('DELETE', `/api/me/bypass-codes/${live[0]!.id}`, () => json(live[0])),
    });
    await user.click(await screen.findByRole('button', { name: /^Revoke the code created May 1, 2025, 9:00 AM/ }));
    const dialog = await findDialog('Revoke this bypass code?');
    expect(dialog).toHaveTextContent('The code created on May 1, 2025, 9:00 AM will stop working at once.');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('The bypass code has been revoked. It no longer works.')).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByRole('region', { name: 'Your bypass codes' })).getAllByRole('listitem')).toHaveLength(1));
    expect(api.callsTo('DELETE', `/api/me/bypass-codes/${live[0]!.id}`)).toHaveLength(1);
  });

  it('shows an error with "Try again" when the list cannot be loaded', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({ path: '/help' });
    api.on('GET', '/api/me/bypass-codes', () => apiError(503, 'mfa.provider_unavailable'));
    await user.click(screen.getByRole('link', { name: 'Bypass codes' }));
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(alert).toHaveTextContent('Your bypass codes could not be loaded');
    expect(alert).toHaveTextContent('The multi-factor service is not answering. Please try again in a few minutes.');
    // 5xx reads are tried 3 times in all before the error shows
    expect(api.callsTo('GET', '/api/me/bypass-codes')).toHaveLength(3);
    api.on('GET', '/api/me/bypass-codes', () => json({ codes: [] }));
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('You have no bypass codes')).toBeInTheDocument();
  }, 15_000);

  it('writes the text file with the codes between a heading and a footer', () => {
    expect(codesAsText({ heading: 'H', codes: ['1', '2'], footer: 'F' })).toBe('H\n\n1\n2\n\nF\n');
  });
});
