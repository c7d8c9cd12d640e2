/**
 * The shapes of the Duo answers the portal reads (Admin API v1, Auth API v2), limited to the fields it
 * uses. Duo may add properties and enumeration values at any time: readers must tolerate both.
 */

export type DuoUserStatus = 'active' | 'bypass' | 'disabled' | 'locked out' | 'pending deletion';

export interface DuoUser {
  user_id: string;
  username: string;
  realname?: string;
  email?: string;
  alias1?: string | null;
  alias2?: string | null;
  alias3?: string | null;
  alias4?: string | null;
  /** One of DuoUserStatus (kept as string: Duo may add values). */
  status: string;
  /** Unix seconds. */
  created?: number;
  last_login?: number | null;
  is_enrolled?: boolean;
  /** Why the user is locked out, when Duo says. */
  lockout_reason?: string | null;
  phones?: DuoPhone[];
  tokens?: DuoToken[];
  webauthncredentials?: DuoWebauthnCredential[];
}

/** A WebAuthn credential (passkey, security key, Touch ID...) as the Admin API describes it. */
export interface DuoWebauthnCredential {
  webauthnkey: string;
  credential_name: string;
  /** Unix seconds. */
  date_added: number;
  /** The kind Duo shows, e.g. `Security Key`, `Touch ID`, `Passkey`. */
  label: string;
  /** How it was registered (Admin API): a roaming security key or a platform authenticator / passkey. */
  registered_as?: string | null;
  /** When it was last used (Unix seconds; null: never). */
  date_last_used?: number | string | null;
  user?: DuoUser;
}

export interface DuoPhone {
  phone_id: string;
  /** E.164, e.g. `+15555550100` ('' for a tablet). */
  number: string;
  extension?: string;
  name: string;
  /** `Mobile`, `Landline`, `Unknown`. */
  type: string;
  /** `Apple iOS`, `Google Android`, `Windows Phone`, `Generic Smartphone`, `Unknown`, ... */
  platform: string;
  /** Duo Mobile is activated on it. */
  activated: boolean;
  /** `auto`, `push`, `sms`, `phone`, `mobile_otp`. */
  capabilities: string[];
  sms_passcodes_sent?: boolean;
  /** `YYYY-MM-DDTHH:MM:SS` (UTC) or ''. */
  last_seen?: string;
  model?: string;
  users?: DuoUser[];
}

export interface DuoToken {
  token_id: string;
  /** `h6`, `h8`, `t6`, `t8`, `yk`, `d1` (Duo-D100). */
  type: string;
  serial: string;
  totp_step?: number | null;
  users?: DuoUser[];
}

export interface DuoBypassCode {
  bypass_code_id: string;
  admin_email?: string;
  /** Unix seconds. */
  created: number;
  /** Unix seconds; null: never expires. */
  expiration: number | null;
  /**
   * Uses left; null: no limit (Duo's C# client's model: "or null if the bypass code has no limit").
   * 0, which is how a code is asked to have no limit, is read as unlimited too.
   */
  reuse_count: number | null;
}

export interface DuoActivation {
  activation_url: string;
  /** URL of a QR-code image at Duo whose `value` query parameter is the activation code. */
  activation_barcode: string;
  installation_url?: string;
  valid_secs: number;
}

export interface DuoSmsActivation extends DuoActivation {
  activation_msg?: string;
  installation_msg?: string;
}

export interface DuoVerificationPush {
  push_id: string;
  /** What the user's phone shows, for the helpdesk to compare. */
  confirmation_code: string;
}

export interface DuoVerificationPushResponse {
  push_id: string;
  /** `approve`, `deny`, `fraud`, `waiting`, ... */
  result: string;
}

export interface DuoAuthDevice {
  device: string;
  type: string;
  name?: string;
  display_name?: string;
  number?: string;
  capabilities?: string[];
}

export interface DuoPreauth {
  /** `auth` (a second factor is needed), `allow` (let in without: bypass status, policy), `deny`, `enroll`. */
  result: string;
  status_msg: string;
  devices?: DuoAuthDevice[];
  enroll_portal_url?: string;
  /**
   * Verified Duo Push: asked for with `client_supports_verified_push=1`, Duo answers a transaction id
   * to pass to /auth when the user's policy requires a verified push. The push then asks, in Duo Mobile,
   * for the code that the first `auth_status` answer's `status_msg` gives the client to display
   * (duo_unix's own test server, `mockduo.py`: "Please enter verification code 376 into Duo Mobile...").
   */
  txid?: string;
}

export interface DuoAuthResult {
  result: 'allow' | 'deny' | string;
  /** `allow`, `deny`, `fraud`, `locked_out`, `bypass`, ... */
  status: string;
  status_msg: string;
}

export interface DuoAuthAsync {
  txid: string;
}

export interface DuoAuthStatus {
  /** `waiting`, `allow`, `deny`. */
  result: string;
  /** `pushed`, `allow`, `deny`, `fraud`, `timeout`, ... */
  status: string;
  status_msg: string;
}
