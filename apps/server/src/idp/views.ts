import { serviceDeskLinkProblem, type ServiceDeskContact } from '@mfa-portal/shared';

/**
 * Server-rendered pages of the embedded identity provider. No inline script and no inline style
 * (the CSP is `script-src 'self'; style-src 'self'`): the look comes from `assets/login.css`.
 * Every interpolated value goes through `escapeHtml`.
 */

export const PORTAL_NAME = 'MFA self-service portal';

export const LOGIN_MESSAGES = {
  invalidCredentials: 'Incorrect username or password.',
  invalidInput: 'The username or password contains characters that cannot be typed. Check them and try again.',
  tooManyAttempts: 'Too many sign-in attempts. Wait a minute, then try again.',
  expired: 'This sign-in page has expired. Go back to the portal to start again.',
  failed: 'Sign-in failed. Go back to the portal to start again.',
  secondFactorExpired: 'Your sign-in took too long. Enter your password again.',
} as const;

export const SECOND_FACTOR_MESSAGES = {
  instructions: 'Enter the 6-digit code from your authenticator app or hardware token, or a bypass code.',
  /** Wrong, already used or expired: the same words, whichever it was. */
  notAccepted: 'That code was not accepted. Check it and try again.',
  malformed: 'Enter the 6 digits of a passcode, or the 9 digits of a bypass code.',
  noPasscodeDevice: 'None of your devices can give a passcode here yet. Enter a bypass code, or contact the service desk.',
  tooManyAttempts: 'Too many attempts. Wait a minute, then try again.',
  webauthnNotAccepted: 'Your passkey or security key was not accepted. Try again, or enter a code.',
  webauthnPossibleClone:
    'This passkey or security key was refused because it may have been copied. Enter a code, and contact the service desk.',
  pushDenied: 'The push was denied on your phone. Send another, or enter a code.',
  pushTimeout: 'The push was not answered in time. Send another, or enter a code.',
  pushNotAnswered: 'The push has not been answered yet. Type the number in the app, then continue.',
  pushNotSent: 'The push could not be sent. Try again, or enter a code.',
  /** The factor policy: what was tried is not a kind the person may use to sign in. */
  notAllowed: 'Your organisation does not let you sign in with that kind of device or code. Use another one shown here.',
  /** The factor policy: nothing the person holds may be used to sign in. */
  nothingAllowed:
    'Your organisation no longer lets you sign in with any of your devices. Contact the service desk: they can remove the devices you may no longer use, so that you can add one that is allowed.',
  /** The factor policy: none of the person's devices may be used, but a bypass code may. */
  onlyBypassAllowed:
    'None of your devices may be used to sign in any more. Enter a bypass code from the service desk, or contact them to add a device that is allowed.',
} as const;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"'`]/g, (ch) => HTML_ESCAPES[ch] ?? ch);
}

export interface PageUrls {
  /** URL of the stylesheet, e.g. `/idp/assets/login.css`. */
  stylesheet: string;
  /** URL of the passkey script, e.g. `/idp/assets/webauthn-login.js` (pages that offer a passkey load it). */
  webauthnScript?: string;
  /** URL of the script of the page waiting for a push, e.g. `/idp/assets/push-login.js`. */
  pushScript?: string;
  /** Where "back to the portal" links go (the SPA). */
  portal: string;
  /** How to reach the service desk (SERVICE_DESK_CONTACT), at the foot of every page; unset: nothing is shown. */
  serviceDesk?: ServiceDeskContact | null;
}

/**
 * The service desk's contact at the foot of the page, for anyone stuck signing in. The link is the
 * configured tel:, mailto: or https: address, checked again here so a page never carries another scheme.
 */
function serviceDeskFooter(desk: ServiceDeskContact | null | undefined): string {
  if (!desk) return '';
  const contact =
    desk.link && serviceDeskLinkProblem(desk.link) === null
      ? `<a href="${escapeHtml(desk.link)}">${escapeHtml(desk.text)}</a>`
      : escapeHtml(desk.text);
  return `\n<p class="detail service-desk">Need help? Contact the service desk: ${contact}</p>`;
}

function layout(urls: PageUrls, title: string, body: string, script?: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · ${escapeHtml(PORTAL_NAME)}</title>
<link rel="stylesheet" href="${escapeHtml(urls.stylesheet)}">
<link rel="icon" href="data:,">
${script ? `<script src="${escapeHtml(script)}" defer></script>\n` : ''}</head>
<body>
<main class="card">
<h1>${escapeHtml(PORTAL_NAME)}</h1>
${body}${serviceDeskFooter(urls.serviceDesk)}
</main>
</body>
</html>
`;
}

export interface LoginPageModel {
  action: string;
  username?: string;
  error?: string;
}

export function loginPage(urls: PageUrls, model: LoginPageModel): string {
  const invalid = model.error ? ' aria-invalid="true" aria-describedby="login-error"' : '';
  const error = model.error ? `<p class="error" id="login-error" role="alert">${escapeHtml(model.error)}</p>\n` : '';
  const autofocusUser = model.username ? '' : ' autofocus';
  const autofocusPassword = model.username ? ' autofocus' : '';
  return layout(
    urls,
    'Sign in',
    `<p class="lead">Sign in with your organisation account.</p>
${error}<form method="post" action="${escapeHtml(model.action)}" class="form">
<label for="username">Username</label>
<input id="username" name="username" type="text" inputmode="email" autocomplete="username" autocapitalize="none" spellcheck="false" maxlength="256" required value="${escapeHtml(model.username ?? '')}"${autofocusUser}${invalid}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" maxlength="1024" required${autofocusPassword}${invalid}>
<button type="submit">Sign in</button>
</form>`,
  );
}

export interface SecondFactorPageModel {
  action: string;
  /** Who is signing in (shown, never editable here). */
  username: string;
  error?: string;
  /** Offer the user's passkey or security key: where the script asks for options and posts the answer. */
  webauthn?: { optionsUrl: string; action: string };
  /** Offer a push to each of these devices (a phone that can be pushed to): where the form posts. */
  push?: { action: string; devices: Array<{ id: string; name: string }> };
  /**
   * What comes first (and has the focus): the person's default sign-in method, or what they just tried.
   * The passcode field when omitted, or when what it names is not on the page.
   */
  first?: 'passcode' | 'push' | 'webauthn';
  /** The passcode field (passcodes and bypass codes); false when the person's factor policy allows neither. */
  passcode?: boolean;
  /** Why the page offers less than the person holds (the factor policy allows none of their devices). */
  notice?: string;
}

/**
 * The second step of a sign-in: one passcode field (6-digit passcodes and 9-digit bypass codes), and a
 * push to each phone and the passkey when the person has them; whichever comes first has the focus.
 */
export function secondFactorPage(urls: PageUrls, model: SecondFactorPageModel): string {
  type Method = 'passcode' | 'push' | 'webauthn';
  const withPasscode = model.passcode !== false;
  const fallback: Method = withPasscode ? 'passcode' : model.webauthn ? 'webauthn' : 'push';
  const first: Method = (model.first === 'push' && model.push) || (model.first === 'webauthn' && model.webauthn) ? model.first : fallback;
  const invalid = model.error
    ? ' aria-invalid="true" aria-describedby="passcode-help passcode-error"'
    : ' aria-describedby="passcode-help"';
  const error = model.error ? `<p class="error" id="passcode-error" role="alert">${escapeHtml(model.error)}</p>\n` : '';
  const focus = (method: Method) => (first === method ? ' autofocus' : '');
  const passcode = `<p class="lead" id="passcode-help">${escapeHtml(SECOND_FACTOR_MESSAGES.instructions)}</p>
${first === 'passcode' ? error : ''}<form method="post" action="${escapeHtml(model.action)}" class="form">
<label for="passcode">Passcode</label>
<input id="passcode" name="passcode" type="text" inputmode="numeric" autocomplete="one-time-code" autocapitalize="none" spellcheck="false" maxlength="32" required${focus('passcode')}${invalid}>
<button type="submit">Verify</button>
</form>`;
  const blocks = {
    passcode: withPasscode ? passcode : null,
    push: model.push ? pushBlock(model.push, focus('push')) : null,
    webauthn: model.webauthn ? webauthnBlock(model.webauthn, focus('webauthn')) : null,
  };
  const order: Method[] = [first, ...(['passcode', 'push', 'webauthn'] as const).filter((m) => m !== first)];
  const shown = order.map((m) => blocks[m]).filter((b): b is string => b !== null);
  const notice = model.notice ?? (shown.length === 0 ? SECOND_FACTOR_MESSAGES.nothingAllowed : null);
  const noticed = notice ? `<p class="error" role="alert">${escapeHtml(notice)}</p>\n` : '';
  return layout(
    urls,
    'Verify it is you',
    `<h2>Verify it is you</h2>
<p class="detail">Signing in as <strong>${escapeHtml(model.username)}</strong></p>
${noticed}${first === 'passcode' ? '' : error}${shown.join('\n<p class="detail">Or</p>\n')}`,
    model.webauthn ? urls.webauthnScript : undefined,
  );
}

/** A push to each phone; the first button has the focus when a push comes first. */
function pushBlock(p: { action: string; devices: Array<{ id: string; name: string }> }, autofocus: string): string {
  return p.devices
    .map(
      (d, i) => `<form method="post" action="${escapeHtml(p.action)}" class="form">
<input type="hidden" name="deviceId" value="${escapeHtml(d.id)}">
<button type="submit"${i === 0 ? autofocus : ''}>Send a push to ${escapeHtml(d.name)}</button>
</form>`,
    )
    .join('\n');
}

export interface PushWaitingPageModel {
  username: string;
  deviceName: string;
  /** The two digits to type in the app. */
  number: string;
  expiresAt: string;
  /** Where the page hears that the push was answered (server-sent events), and where it then posts. */
  eventsUrl: string;
  action: string;
  /** Back to the second page (a passcode instead). */
  passcodeUrl: string;
  error?: string;
}

/** Waiting for a push: the number to type in the app, large; a countdown; a passcode instead. */
export function pushWaitingPage(urls: PageUrls, m: PushWaitingPageModel): string {
  const error = m.error ? `<p class="error" role="alert">${escapeHtml(m.error)}</p>\n` : '';
  const seconds = Math.max(0, Math.round((new Date(m.expiresAt).getTime() - Date.now()) / 1000));
  return layout(
    urls,
    'Approve the push',
    `<h2>Approve the push on your phone</h2>
<p class="detail">Signing in as <strong>${escapeHtml(m.username)}</strong></p>
${error}<p class="lead" id="push-help">Open Portal Authenticator on ${escapeHtml(m.deviceName)} and type this number:</p>
<p class="push-number" aria-describedby="push-help" aria-label="Number to type: ${escapeHtml(m.number.split('').join(' '))}">${escapeHtml(m.number)}</p>
<p class="detail" id="push-countdown" role="timer" aria-live="off" data-expires-at="${escapeHtml(m.expiresAt)}">${seconds} seconds left</p>
<form method="post" action="${escapeHtml(m.action)}" id="push-form" data-events-url="${escapeHtml(m.eventsUrl)}" class="form">
<input type="hidden" name="number" value="${escapeHtml(m.number)}">
<button type="submit">I typed the number, continue</button>
<p class="detail" id="push-status" role="status"></p>
</form>
<p><a href="${escapeHtml(m.passcodeUrl)}">Use a passcode instead</a></p>`,
    urls.pushScript,
  );
}

function webauthnBlock(w: { optionsUrl: string; action: string }, autofocus: string): string {
  return `<form method="post" action="${escapeHtml(w.action)}" id="webauthn-form" data-options-url="${escapeHtml(w.optionsUrl)}" class="form">
<input type="hidden" name="challengeId" value="">
<input type="hidden" name="credential" value="">
<button type="button" id="webauthn-start"${autofocus}>Use your passkey or security key</button>
<p class="detail" id="webauthn-status" role="status" hidden></p>
</form>`;
}

/** A dead end (expired or unknown interaction, unexpected failure): say so, link back to the portal. */
export function messagePage(urls: PageUrls, title: string, message: string): string {
  return layout(
    urls,
    title,
    `<h2>${escapeHtml(title)}</h2>
<p>${escapeHtml(message)}</p>
<p><a class="button" href="${escapeHtml(urls.portal)}">Back to the portal</a></p>`,
  );
}

/** RP-initiated logout confirmation; `form` is oidc-provider's hidden form (id `op.logoutForm`, xsrf). */
export function logoutPage(urls: PageUrls, form: string): string {
  return layout(
    urls,
    'Sign out',
    `<h2>Sign out</h2>
<p>Do you want to sign out of the ${escapeHtml(PORTAL_NAME)}?</p>
${form}
<button type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>Sign out</button>
<p><a href="${escapeHtml(urls.portal)}">Stay signed in</a></p>`,
  );
}

export function loggedOutPage(urls: PageUrls): string {
  return layout(
    urls,
    'Signed out',
    `<h2>You have signed out</h2>
<p>You can close this window, or sign in again.</p>
<p><a class="button" href="${escapeHtml(urls.portal)}">Back to the portal</a></p>`,
  );
}

/** oidc-provider's error page (requests that cannot be redirected back to the client). */
export function providerErrorPage(urls: PageUrls, out: { error?: string; error_description?: string }): string {
  return layout(
    urls,
    'Sign-in error',
    `<h2>Something went wrong</h2>
<p>${escapeHtml(out.error_description || 'The sign-in request could not be processed.')}</p>
<p class="detail">Error code: <code>${escapeHtml(out.error || 'server_error')}</code></p>
<p><a class="button" href="${escapeHtml(urls.portal)}">Back to the portal</a></p>`,
  );
}
