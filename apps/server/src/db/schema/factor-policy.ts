import type { ColumnType, Generated } from 'kysely';

/** (0025) The factor policy: the global row and the directory groups' overrides. */

interface FactorPolicyColumns {
  /** Kinds of factor that may be enrolled (`FactorKind` of @mfa-portal/shared). */
  enrol: string[];
  /** Kinds of factor that may be used at sign-in and step-up. */
  use: string[];
  require_phishing_resistant: Generated<boolean>;
  /** Kind → the most a person may hold; a kind left out has no limit. */
  max_per_kind: ColumnType<Record<string, number>, string | undefined, string>;
  updated_by: string;
  updated_at: Generated<Date>;
}

export interface FactorPolicyGlobalTable extends FactorPolicyColumns {
  /** Always 1: there is one global policy. */
  id: number;
}

export interface FactorPolicyGroupTable extends FactorPolicyColumns {
  /** The directory (SCIM) group whose members this override applies to. */
  group_id: string;
}

export interface FactorPolicyTables {
  factor_policy_global: FactorPolicyGlobalTable;
  factor_policy_group: FactorPolicyGroupTable;
}
