import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderApp } from '../../test/render';
import { createTestI18n } from '../../test/i18n';
import { render } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { ServerErrorPage } from './ServerErrorPage';

describe('error routes (no sign-in needed)', () => {
  it('/error/500 shows the server error page with a link home', async () => {
    await renderApp({ path: '/error/500' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Something went wrong' })).toBeInTheDocument();
    const home = screen.getByRole('link', { name: 'Go to the home page' });
    expect(home).toHaveAttribute('href', '/');
  });

  it.each(['/error/unauthorized', '/error/401'])('%s shows the unauthorized page', async (path) => {
    await renderApp({ path });
    expect(await screen.findByRole('heading', { level: 1, name: 'You are not allowed to use this portal' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in again' })).toBeInTheDocument();
    // nobody is signed in here: no sign-out offered
    expect(screen.queryByRole('button', { name: /sign out/i })).not.toBeInTheDocument();
  });

  it('/error/accountdisabled shows the account-disabled page and the reason passed by the shell', async () => {
    const { unmount } = await renderApp({ path: '/error/accountdisabled' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Your account is disabled' })).toBeInTheDocument();
    expect(screen.queryByText(/Reason given/)).not.toBeInTheDocument();
    unmount();
  });

  it('/error/missingtwofactor shows the missing two-factor page', async () => {
    await renderApp({ path: '/error/missingtwofactor' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Two-factor authentication is not set up for you' })).toBeInTheDocument();
  });

  it('/loggedout shows the logged-out page with a way to sign in again', async () => {
    await renderApp({ path: '/loggedout' });
    expect(await screen.findByRole('heading', { level: 1, name: 'You have signed out' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in again' })).toHaveAttribute('href', '/');
  });

  it('/loggedout drops the state the identity provider appends', async () => {
    await renderApp({ path: '/loggedout?state=eyJpZCI6IjEifQ%3D%3D' });
    expect(await screen.findByRole('heading', { level: 1, name: 'You have signed out' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/loggedout$/);
  });

  it('pages have a banner and a main landmark', async () => {
    await renderApp({ path: '/loggedout' });
    expect(await screen.findByRole('banner')).toHaveTextContent('MFA self-service portal');
    expect(screen.getByRole('main')).toBeInTheDocument();
    expect(document.title).toBe('You have signed out – MFA self-service portal');
  });
});

describe('server error page in the failed state', () => {
  it('has no home link, and explains a known server error code in plain English', async () => {
    const i18n = await createTestI18n();
    render(
      <I18nextProvider i18n={i18n}>
        <MemoryRouter>
          <ServerErrorPage showHomeLink={false} error={'{"code":"mfa.provider_unavailable","message":"down"}'} />
        </MemoryRouter>
      </I18nextProvider>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
    expect(screen.getByText('The multi-factor service is not answering. Please try again in a few minutes.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
