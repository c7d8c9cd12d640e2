import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { createTestI18n } from '../../test/i18n';
import { explanationOf, ProblemDetails } from './ProblemDetails';

/** How the shell explains the errors Entra ID sends back to the redirect address. */
describe('ProblemDetails with Entra ID errors', () => {
  it('reads the cause from the AADSTS code of the description, whatever the generic error says', () => {
    expect(
      explanationOf({
        code: 'interaction_required',
        message:
          "AADSTS50105: Your administrator has configured the application to block users unless they are specifically granted ('assigned') access",
      }),
    ).toBe('user_not_assigned');
    expect(
      explanationOf({
        code: 'consent_required',
        message: 'AADSTS65001: The user or administrator has not consented to use the application.',
      }),
    ).toBe('consent_required');
    expect(explanationOf({ code: 'interaction_required', message: 'AADSTS50076: you must use multi-factor authentication' })).toBe(
      'interaction_required',
    );
    expect(explanationOf({ code: 'access_denied', message: 'no AADSTS code here' })).toBe('access_denied');
    expect(explanationOf({ code: 'server_error', message: 'AADSTS90002: Tenant not found.' })).toBeNull();
  });

  it('tells a person not assigned to the application, in plain English, whom to ask, with the code for the service desk', async () => {
    const i18n = await createTestI18n();
    render(
      <I18nextProvider i18n={i18n}>
        <ProblemDetails
          problem={{
            code: 'interaction_required',
            message: 'AADSTS50105: The signed in user is not assigned to a role for the application.',
          }}
        />
      </I18nextProvider>,
    );
    expect(screen.getByText(/has not been given access to this portal/)).toBeInTheDocument();
    expect(screen.getByText('Error code for the service desk: interaction_required')).toBeInTheDocument();
  });
});
