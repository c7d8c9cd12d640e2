import '../../lib/test/setup';
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderPortal } from '../../test/render-portal';
import { apiInfo } from '../../test/fixtures';

describe('help', () => {
  it('links to the configured setup instructions and community page, and answers common questions', async () => {
    await renderPortal({ path: '/help' });
    expect(screen.getByRole('heading', { level: 1, name: 'Help' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open the setup instructions (opens in a new tab)' })).toHaveAttribute(
      'href',
      apiInfo.links.setupInstructions,
    );
    expect(screen.getByRole('link', { name: 'Visit the community page (opens in a new tab)' })).toHaveAttribute(
      'href',
      apiInfo.links.community,
    );
    const question = screen.getByText('I lost my phone or token. What now?');
    await userEvent.setup().click(question);
    expect(question.closest('details')).toHaveAttribute('open');
    expect(screen.getByRole('link', { name: 'Help' })).toHaveAttribute('aria-current', 'page');
  });

  it('answers which device to add with the advice Add a device gives, in the same order', async () => {
    await renderPortal({ path: '/help' });
    const question = screen.getByText('Which device should I add?');
    await userEvent.setup().click(question);
    const answer = question.closest('details')!;
    expect(await within(answer).findByRole('link', { name: 'Add a passkey or security key' })).toHaveAttribute(
      'href',
      '/devices/add/passkey',
    );
    expect(answer).toHaveTextContent('We recommend a passkey or security key: it cannot be tricked by a fake website.');
    expect(
      within(answer)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Add a passkey or security key', 'Set up Portal Authenticator', 'Add an authenticator app', 'Add a hardware token']);
    expect(answer).not.toHaveTextContent('quickest');
  });

  it('moves focus to the heading of the page the user navigates to', async () => {
    await renderPortal({ path: '/' });
    await userEvent.setup().click(screen.getByRole('link', { name: 'Help' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Help' })).toHaveFocus();
    expect(document.title).toBe('Help – MFA self-service portal');
  });

  it('has a skip link that moves focus to the main content', async () => {
    await renderPortal({ path: '/help' });
    const user = userEvent.setup();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Skip to main content' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('main')).toHaveFocus();
  });
});
