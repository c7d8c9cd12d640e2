import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export function localesRepository(db: Kysely<Database>) {
  return {
    countMissing() {
      return db
        .selectFrom('missing_translation')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
    },
    /** Inserts new keys and bumps the report count of known ones. */
    async recordMissing(lng: string, ns: string, entries: Array<[string, string]>, allowNew: boolean) {
      if (entries.length === 0) return;
      if (!allowNew) {
        await db
          .updateTable('missing_translation')
          .set({ reports: sql`reports + 1`, last_seen_at: sql`now()` })
          .where('lng', '=', lng)
          .where('ns', '=', ns)
          .where(
            'key',
            'in',
            entries.map(([k]) => k),
          )
          .execute();
        return;
      }
      await db
        .insertInto('missing_translation')
        .values(entries.map(([key, fallback]) => ({ lng, ns, key, fallback })))
        .onConflict((oc) =>
          oc.columns(['lng', 'ns', 'key']).doUpdateSet({ reports: sql`missing_translation.reports + 1`, last_seen_at: sql`now()` }),
        )
        .execute();
    },
    listMissing(lng: string, ns: string) {
      return db.selectFrom('missing_translation').selectAll().where('lng', '=', lng).where('ns', '=', ns).orderBy('key').execute();
    },
  };
}
