import { sql, type Kysely } from 'kysely';

/**
 * The factor policy: which kinds of factor may be enrolled and used, whether a phishing-resistant one is
 * required, and the most of each a person may hold. One global row, and at most one override per
 * directory (SCIM) group; a deleted group takes its override with it. Kinds are kept as text arrays (a
 * set, checked by the API); the maxima as a JSON object of kind → number.
 *
 * The global row is written when an administrator first saves it; until then the policy allows every
 * kind, with no limit, as the portal did before it had a policy.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const rule = (t: any) =>
    t
      .addColumn('enrol', sql`text[]`, (c: any) => c.notNull())
      .addColumn('use', sql`text[]`, (c: any) => c.notNull())
      .addColumn('require_phishing_resistant', 'boolean', (c: any) => c.notNull().defaultTo(false))
      .addColumn('max_per_kind', 'jsonb', (c: any) => c.notNull().defaultTo(sql`'{}'::jsonb`))
      .addColumn('updated_by', 'text', (c: any) => c.notNull())
      .addColumn('updated_at', 'timestamptz', (c: any) => c.notNull().defaultTo(sql`now()`));

  await rule(db.schema.createTable('factor_policy_global').addColumn('id', 'smallint', (c) => c.primaryKey().check(sql`id = 1`))).execute();
  await rule(
    db.schema
      .createTable('factor_policy_group')
      .addColumn('group_id', 'uuid', (c) => c.primaryKey().references('scim_group.id').onDelete('cascade')),
  ).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('factor_policy_group').execute();
  await db.schema.dropTable('factor_policy_global').execute();
}
