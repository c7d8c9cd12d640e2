/**
 * Business and shell constants: the limits, defaults and names the server and the web app must agree on.
 * Every other module imports them from here; none of these values is repeated as a literal.
 */

/** Maximum bypass-code validity: 7 days, in seconds. Never "forever". */
export const MAX_BYPASS_VALIDITY_SECONDS = 7 * 24 * 60 * 60;

/** Default roles that mark a protected account (configurable on the server). */
export const DEFAULT_RESTRICTED_ROLES = ['Solution Administrator', 'Helpdesk Administrator'] as const;

/** Default country for phone-number input. */
export const DEFAULT_COUNTRY_CODE = 'US';

/** Seconds a success banner stays on screen. */
export const DEFAULT_MESSAGE_TIMER_SECONDS = 5;

/** Hardware token types the portal supports. */
export const HARDWARE_TOKEN_TYPES = ['Duo D100'] as const;
export type HardwareTokenType = (typeof HARDWARE_TOKEN_TYPES)[number];
/** The Duo D100 is an HOTP (RFC 4226) token with 6-digit codes. */
export const D100_CODE_DIGITS = 6;

/** Authentication types offered for verification. */
export const AUTHENTICATION_TYPES = ['Push', 'Passcode'] as const;
export type AuthenticationType = (typeof AUTHENTICATION_TYPES)[number];

/** Scopes requested at sign-in (the API scope is added from /settings/APIInfo). */
export const LOGIN_SCOPES = ['openid', 'user.read', 'offline_access'] as const;

/** Translation loading: at most 5 retries, first after 350 ms, doubling (5xx only). */
export const TRANSLATION_MAX_RETRIES = 5;
export const TRANSLATION_RETRY_INITIAL_MS = 350;

/** The only, and fallback, language. */
export const FALLBACK_LANGUAGE = 'en';
export const SUPPORTED_LANGUAGES = ['en'] as const;
export type SupportedLanguage = (typeof SUPPORTED_LANGUAGES)[number];

/** Language detection order; the result is cached in localStorage. */
export const LANGUAGE_DETECTION_ORDER = ['querystring', 'cookie', 'localStorage', 'sessionStorage', 'navigator', 'htmlTag'] as const;
export const LANGUAGE_QUERY_PARAMETER = 'lng';
export const LANGUAGE_CACHES = ['localStorage'] as const;

/** i18next interpolation: maximum replacements per string. */
export const INTERPOLATION_MAX_REPLACES = 1000;

/** Lazily loaded chunks time out after 120 s. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
export const STATIC_JS_PREFIX = 'static/js';
export const STATIC_CSS_PREFIX = 'static/css';

/** Toast (message) and notification durations, in seconds (Ant Design defaults). */
export const TOAST_DURATION_SECONDS = 3;
export const NOTIFICATION_DURATION_SECONDS = 4.5;

/** Browser storage keys used by the sign-in shell. */
export const STORAGE_KEY_FIRST_AUTH = 'firstAuth';
export const STORAGE_KEY_REDIRECT = 'redirect';

/** Header carrying the identity-token claims the shell read (base64url JSON). */
export const CLAIMS_HEADER = 'x-client-claims';

/** Paths of the shell's calls. */
export const API_PATHS = {
  clientInfo: '/settings/AADClientInfo',
  apiInfo: '/settings/APIInfo',
  userInfo: '/account/getuserinfo',
  locales: '/locales/{{lng}}/{{ns}}.json',
  localesAdd: '/locales/add/{{lng}}/{{ns}}',
  serviceWorker: '/service-worker.js',
} as const;
