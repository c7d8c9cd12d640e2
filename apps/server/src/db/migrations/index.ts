import type { Migration } from 'kysely';
import * as m0001 from './0001_core.js';
import * as m0002 from './0002_idp.js';
import * as m0003 from './0003_mfa_builtin.js';
import * as m0004 from './0004_mfa_domain.js';
import * as m0005 from './0005_directory_user.js';
import * as m0006 from './0006_push_transaction.js';
import * as m0007 from './0007_rate_limit.js';
import * as m0008 from './0008_scale.js';
import * as m0009 from './0009_scim.js';
import * as m0010 from './0010_enrolment_pass.js';
import * as m0011 from './0011_webauthn.js';
import * as m0012 from './0012_session_revocation.js';
import * as m0014 from './0014_notifications.js';
import * as m0015 from './0015_reports.js';
import * as m0016 from './0016_short_search.js';
import * as m0017 from './0017_change_feed.js';
import * as m0018 from './0018_session_trust.js';
import * as m0019 from './0019_authenticator_app.js';
import * as m0020 from './0020_scim_addresses.js';
import * as m0021 from './0021_siem_outbox.js';
import * as m0022 from './0022_default_method.js';
import * as m0023 from './0023_audit_search.js';
import * as m0024 from './0024_admin_units.js';
import * as m0025 from './0025_factor_policy.js';
import * as m0026 from './0026_enrolment_campaigns.js';

/** Ordered by name. Never edit a migration that has shipped: add a new one. */
export const migrations: Record<string, Migration> = {
  '0001_core': m0001,
  '0002_idp': m0002,
  '0003_mfa_builtin': m0003,
  '0004_mfa_domain': m0004,
  '0005_directory_user': m0005,
  '0006_push_transaction': m0006,
  '0007_rate_limit': m0007,
  '0008_scale': m0008,
  '0009_scim': m0009,
  '0010_enrolment_pass': m0010,
  '0011_webauthn': m0011,
  '0012_session_revocation': m0012,
  '0014_notifications': m0014,
  '0015_reports': m0015,
  '0016_short_search': m0016,
  '0017_change_feed': m0017,
  '0018_session_trust': m0018,
  '0019_authenticator_app': m0019,
  '0020_scim_addresses': m0020,
  '0021_siem_outbox': m0021,
  '0022_default_method': m0022,
  '0023_audit_search': m0023,
  '0024_admin_units': m0024,
  '0025_factor_policy': m0025,
  '0026_enrolment_campaigns': m0026,
};
