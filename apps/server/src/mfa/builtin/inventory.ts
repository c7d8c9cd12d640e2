import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database, HardwareTokenStatus } from '../../db/schema.js';
import { containsPattern } from '../../db/like.js';
import { tokenSeedAad } from './builtin-mapping.js';
import type { ImportRefusal, ImportReport, InventoryToken, TokenInventory } from '../inventory.js';
import { MfaError } from '../port.js';
import { builtinRepository } from './builtin.repository.js';
import type { SecretBox } from '../../lib/secret-box.js';

/**
 * The builtin provider's Duo D100 inventory, for a Solution Administrator: list and search,
 * import serials and seeds from CSV with per-row validation, unassign a token from its holder (the
 * holder's device goes, the counter stays), retire a token for good. Seeds are sealed at rest and
 * never read back out.
 */

export const TOKEN_TYPE_D100 = 'Duo D100';
export const IMPORT_MAX_ROWS = 1000;
const SERIAL_PATTERN = /^[A-Za-z0-9-]{1,32}$/;
/** HOTP seeds of 16 to 64 bytes, in hex (a D100 seed is 20 bytes, 40 hex digits). */
const SEED_PATTERN = /^(?:[0-9a-fA-F]{2}){16,64}$/;

/** Splits the CSV text into rows (header `serial,seed`); values are trimmed, quotes allowed around them. */
export function parseTokenCsv(text: string): { rows: Array<{ line: number; serial: string; seed: string }>; refused: ImportRefusal[] } {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const refused: ImportRefusal[] = [];
  const rows: Array<{ line: number; serial: string; seed: string }> = [];
  const cells = (l: string) =>
    l.split(',').map((c) =>
      c
        .trim()
        .replace(/^"(.*)"$/, '$1')
        .trim(),
    );
  const headerIndex = lines.findIndex((l) => l.trim() !== '');
  const header = headerIndex >= 0 ? cells(lines[headerIndex]!).map((c) => c.toLowerCase()) : [];
  if (header.length !== 2 || header[0] !== 'serial' || header[1] !== 'seed') {
    return { rows, refused: [{ line: headerIndex >= 0 ? headerIndex + 1 : 1, serial: null, reason: 'header_missing' }] };
  }
  for (let i = headerIndex + 1; i < lines.length; i++) {
    const raw = lines[i]!;
    if (raw.trim() === '') continue;
    const line = i + 1;
    const c = cells(raw);
    if (c.length !== 2) {
      refused.push({ line, serial: c[0] || null, reason: 'column_count' });
      continue;
    }
    const [serial, seed] = c as [string, string];
    if (rows.length >= IMPORT_MAX_ROWS) refused.push({ line, serial: serial || null, reason: 'too_many_rows' });
    else if (!SERIAL_PATTERN.test(serial)) refused.push({ line, serial: serial || null, reason: 'serial_invalid' });
    else if (!SEED_PATTERN.test(seed)) refused.push({ line, serial, reason: 'seed_invalid' });
    else if (rows.some((r) => r.serial.toUpperCase() === serial.toUpperCase())) refused.push({ line, serial, reason: 'duplicate_in_file' });
    else rows.push({ line, serial, seed });
  }
  return { rows, refused };
}

export function createInventory(db: Kysely<Database>, box: SecretBox): TokenInventory {
  const base = () =>
    db
      .selectFrom('mfa_hardware_token as t')
      .leftJoin('mfa_user as u', 'u.id', 't.user_id')
      .select(['t.serial', 't.token_type', 't.status', 't.assigned_at', 't.created_at', 'u.username'])
      // Through mfa_device's user index: whether taking the token leaves its holder without a device.
      .select((eb) =>
        eb
          .selectFrom('mfa_device as d')
          .select((c) => c.fn.countAll<string | number>().as('n'))
          .whereRef('d.user_id', '=', 't.user_id')
          .as('holder_devices'),
      );
  type Row = Awaited<ReturnType<ReturnType<typeof base>['execute']>>[number];
  const toToken = (r: Row): InventoryToken => ({
    serial: r.serial,
    tokenType: r.token_type,
    status: r.status,
    assignedTo: r.username ?? null,
    assignedAt: r.assigned_at,
    createdAt: r.created_at,
    holderDevices: r.username ? Number(r.holder_devices ?? 0) : null,
  });

  return {
    async list(filter: { q?: string; status?: HardwareTokenStatus; limit: number }): Promise<InventoryToken[]> {
      let q = base();
      if (filter.q) {
        const pattern = containsPattern(filter.q);
        q = q.where((eb) => eb.or([eb(sql`lower(t.serial)`, 'like', pattern), eb(sql`lower(u.username)`, 'like', pattern)]));
      }
      if (filter.status) q = q.where('t.status', '=', filter.status);
      return (
        await q
          .orderBy(sql`upper(t.serial)`)
          .limit(filter.limit)
          .execute()
      ).map(toToken);
    },

    async find(serial: string): Promise<InventoryToken | null> {
      const row = await base()
        .where(sql`upper(t.serial)`, '=', serial.toUpperCase())
        .executeTakeFirst();
      return row ? toToken(row) : null;
    },

    /** Imports the valid rows (all in one transaction); a serial already known is refused, never overwritten. */
    async importCsv(text: string): Promise<ImportReport> {
      const { rows, refused } = parseTokenCsv(text);
      let imported = 0;
      await db.transaction().execute(async (trx) => {
        for (const row of rows) {
          const id = randomUUID();
          const inserted = await trx
            .insertInto('mfa_hardware_token')
            .values({
              id,
              serial: row.serial,
              token_type: TOKEN_TYPE_D100,
              seed_sealed: box.seal(Buffer.from(row.seed, 'hex'), tokenSeedAad(id)),
            })
            .onConflict((oc) => oc.expression(sql`upper(serial)`).doNothing())
            .returning('id')
            .executeTakeFirst();
          if (inserted) imported++;
          else refused.push({ line: row.line, serial: row.serial, reason: 'serial_exists' });
        }
      });
      refused.sort((a, b) => a.line - b.line);
      return { imported, refused };
    },

    /**
     * Takes an assigned token from its holder: their device of it is removed; the counter is kept.
     * Refuses (`last_device`) when it is the holder's only device unless `allowLast`, as removing a
     * device does. The holder is locked before the token, in the order a device removal takes them.
     */
    async unassign(
      serial: string,
      opts: { at?: Date; allowLast?: boolean } = {},
    ): Promise<{ token: InventoryToken; formerHolder: string }> {
      const at = opts.at ?? new Date();
      return db.transaction().execute(async (trx) => {
        const r = builtinRepository(trx);
        const found = await trx
          .selectFrom('mfa_hardware_token')
          .select('user_id')
          .where(sql`upper(serial)`, '=', serial.toUpperCase())
          .executeTakeFirst();
        if (!found) throw new MfaError('token_not_found');
        const holder = found.user_id
          ? await trx.selectFrom('mfa_user').select(['id', 'username']).where('id', '=', found.user_id).forUpdate().executeTakeFirst()
          : undefined;
        const token = await r.lockTokenBySerial(serial);
        if (!token) throw new MfaError('token_not_found');
        if (token.status !== 'assigned' || token.user_id === null || token.user_id !== holder?.id) throw new MfaError('token_not_assigned');
        if (!opts.allowLast && (await r.countDevices(holder.id)) <= 1) throw new MfaError('last_device');
        await trx.deleteFrom('mfa_device').where('hardware_token_id', '=', token.id).execute();
        await r.releaseToken(token.id, at);
        return {
          token: {
            serial: token.serial,
            tokenType: token.token_type,
            status: 'available' as const,
            assignedTo: null,
            assignedAt: null,
            createdAt: token.created_at,
            holderDevices: null,
          },
          formerHolder: holder.username,
        };
      });
    },

    /** Retires an available token for good (an assigned one must be unassigned first). */
    async retire(serial: string, at: Date = new Date()): Promise<InventoryToken> {
      return db.transaction().execute(async (trx) => {
        const token = await trx
          .selectFrom('mfa_hardware_token')
          .selectAll()
          .where(sql`upper(serial)`, '=', serial.toUpperCase())
          .forUpdate()
          .executeTakeFirst();
        if (!token) throw new MfaError('token_not_found');
        if (token.status === 'assigned') throw new MfaError('token_assigned');
        if (token.status === 'retired') throw new MfaError('token_retired');
        await trx.updateTable('mfa_hardware_token').set({ status: 'retired', updated_at: at }).where('id', '=', token.id).execute();
        return {
          serial: token.serial,
          tokenType: token.token_type,
          status: 'retired' as const,
          assignedTo: null,
          assignedAt: null,
          createdAt: token.created_at,
          holderDevices: null,
        };
      });
    },
  };
}

export type Inventory = TokenInventory;
export type { ImportRefusal, ImportReport, InventoryToken };
