/**
 * Takes the activation token out of the address (`#activate=<token>`), and the address bar with it:
 * the token is a one-time secret, and should not stay in the history, a bookmark or a screenshot.
 */
export function takeActivationToken(location: Location = window.location, history: History = window.history): string | null {
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  const token = params.get('activate');
  if (token === null) return null;
  history.replaceState(history.state, '', `${location.pathname}${location.search}`);
  return token;
}
