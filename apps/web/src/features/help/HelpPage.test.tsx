import '../../lib/test/setup';
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
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
