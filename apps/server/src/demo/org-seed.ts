import { randomBytes, randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { hashPassword } from '../idp/password.js';
import { deviceSecretAad, tokenSeedAad } from '../mfa/builtin/builtin-provider.js';
import { generateTotpSecret } from '../mfa/common/otp.js';
import type { SecretBox } from '../lib/secret-box.js';
import { chainHash, type AuditEvent } from '../modules/audit/audit-chain.js';
import { ORG_DOMAIN, orgUser, pickEvent, prng, type OrgUser } from './org-data.js';

/**
 * Loads a realistic organisation into the configured database (`npm run seed:org`): staff
 * in the embedded identity provider, the portal's directory and the builtin MFA store (devices,
 * hardware tokens, bypass codes), and audit events over the last year on the hash chain. Rows go in
 * as a handful of array-parameter INSERT ... SELECT FROM unnest(...) statements per batch (a
 * statement per thousands of rows, not per row), so 100,000 users and 1,000,000 events take minutes.
 * Running it again adds to what is there: users are numbered on from the last one, events continue the
 * chain from the stored head (appended under the head lock, as the audit service does).
 */

export interface OrgSeedOptions {
  users: number;
  events: number;
  /** The password of every seeded staff account (hashed once: they all share it). */
  password: string;
  /** Seals authenticator secrets and token seeds, as the builtin provider does. */
  box: SecretBox;
  now?: Date;
  userBatch?: number;
  eventBatch?: number;
  onProgress?: (what: 'users' | 'events', done: number, total: number) => void;
}

export interface OrgSeedResult {
  usersAdded: number;
  eventsAdded: number;
  usersTotal: number;
  eventsTotal: number;
}

const YEAR_MS = 365 * 86_400_000;

const SETTLED_TABLES = [
  'mfa_user',
  'mfa_device',
  'mfa_hardware_token',
  'mfa_bypass_code',
  'directory_user',
  'idp_account',
  'audit_event',
] as const;

/**
 * After a bulk load (`npm run seed:org`, the benchmark): VACUUM (ANALYZE) of the tables
 * {@link seedOrganisation} fills. Until autovacuum gets to them (a minute or more) the planner has no
 * statistics for the new rows and misjudges the search expressions' selectivity (it walked all 100,000
 * users for a rare two-letter name: 175 ms instead of 0.3 ms, measured), and autovacuum's own pass then
 * competes with the first requests. Settled now, the portal is at full speed the moment the seed ends.
 */
export async function settleOrganisationTables(db: Kysely<Database>): Promise<void> {
  for (const table of SETTLED_TABLES) await sql`vacuum (analyze) ${sql.table(table)}`.execute(db);
}

export async function seedOrganisation(db: Kysely<Database>, opts: OrgSeedOptions): Promise<OrgSeedResult> {
  const now = opts.now ?? new Date();
  const userBatch = opts.userBatch ?? 5000;
  const eventBatch = opts.eventBatch ?? 10_000;
  const passwordHash = await hashPassword(opts.password);

  // Numbering continues after the users a previous run added (each run draws new names).
  const first = Number(
    (
      await db
        .selectFrom('mfa_user')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('username', 'like', `%@${ORG_DOMAIN}`)
        .executeTakeFirstOrThrow()
    ).n,
  );
  const rand = prng(0x5eed + first);
  for (let done = 0; done < opts.users;) {
    const n = Math.min(userBatch, opts.users - done);
    const users = Array.from({ length: n }, (_, i) => orgUser(first + done + i, rand, now));
    await db.transaction().execute((trx) => insertUsers(trx, users, passwordHash, opts.box, now, rand));
    done += n;
    opts.onProgress?.('users', done, opts.users);
  }

  if (opts.events > 0) await appendEvents(db, opts, now, eventBatch);

  const [u, e] = await Promise.all([
    db
      .selectFrom('mfa_user')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('audit_event')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { usersAdded: opts.users, eventsAdded: opts.events, usersTotal: Number(u.n), eventsTotal: Number(e.n) };
}

async function insertUsers(trx: Kysely<Database>, users: OrgUser[], passwordHash: string, box: SecretBox, now: Date, rand: () => number) {
  const ids = users.map(() => randomUUID());
  const realName = (u: OrgUser) => `${u.givenName} ${u.familyName}`;
  const roles = (u: OrgUser) => u.roles.join(';');

  await sql`
    insert into idp_account (username, password_hash, email, given_name, family_name, roles)
    select u, ${passwordHash}, u, g, f, case when r = '' then '{}'::text[] else string_to_array(r, ';') end
    from unnest(${users.map((u) => u.username)}::text[], ${users.map((u) => u.givenName)}::text[],
                ${users.map((u) => u.familyName)}::text[], ${users.map(roles)}::text[]) as t(u, g, f, r)
    on conflict (username) do nothing`.execute(trx);

  await sql`
    insert into directory_user (upn, display_name, email, roles, last_seen_at)
    select u, n, u, case when not seen then null when r = '' then '{}'::text[] else string_to_array(r, ';') end, s
    from unnest(${users.map((u) => u.username)}::text[], ${users.map(realName)}::text[], ${users.map(roles)}::text[],
                ${users.map((u) => u.seenRoles)}::boolean[], ${users.map((u) => u.lastSeenAt)}::timestamptz[]) as t(u, n, r, seen, s)
    on conflict (upn) do nothing`.execute(trx);

  await sql`
    insert into mfa_user (id, username, email, real_name, status, status_reason)
    select * from unnest(${ids}::uuid[], ${users.map((u) => u.username)}::text[], ${users.map((u) => u.username)}::text[],
                         ${users.map(realName)}::text[], ${users.map((u) => u.status)}::text[], ${users.map((u) => u.statusReason)}::text[])`.execute(
    trx,
  );

  const tokens: { id: string; serial: string; seed: string; userId: string }[] = [];
  const devices: {
    id: string;
    userId: string;
    kind: string;
    name: string;
    caps: string;
    phone: string | null;
    platform: string | null;
    serial: string | null;
    tokenType: string | null;
    secret: string | null;
    tokenId: string | null;
    createdAt: Date;
  }[] = [];
  const codes: { userId: string; hash: string; uses: number; expires: Date }[] = [];
  users.forEach((u, i) => {
    const userId = ids[i]!;
    u.devices.forEach((d, k) => {
      const id = randomUUID();
      const createdAt = new Date(now.getTime() - Math.floor(rand() * YEAR_MS) + k);
      const base = { id, userId, phone: null, platform: null, serial: null, tokenType: null, secret: null, tokenId: null, createdAt };
      if (d.kind === 'phone')
        devices.push({ ...base, kind: 'phone', name: d.name, caps: 'push;passcode', phone: d.phoneNumber, platform: d.platform });
      else if (d.kind === 'authenticator') {
        devices.push({
          ...base,
          kind: 'authenticator',
          name: d.name,
          caps: 'passcode',
          // Base32 text, as an enrolment stores it and the passcode check reads it (raw bytes cannot be checked).
          secret: box.seal(generateTotpSecret(), deviceSecretAad(id)),
        });
      } else {
        const tokenId = randomUUID();
        tokens.push({ id: tokenId, serial: d.serial, seed: box.seal(randomBytes(20), tokenSeedAad(tokenId)), userId });
        devices.push({
          ...base,
          kind: 'hardware_token',
          name: 'Duo D100 token',
          caps: 'passcode',
          serial: d.serial,
          tokenType: 'Duo D100',
          tokenId,
        });
      }
    });
    for (let c = 0; c < u.bypassCodes; c++) {
      codes.push({
        userId,
        hash: randomBytes(32).toString('hex'),
        uses: 1 + Math.floor(rand() * 3),
        expires: new Date(now.getTime() + (1 + Math.floor(rand() * 7 * 24)) * 3_600_000),
      });
    }
  });

  if (tokens.length > 0) {
    await sql`
      insert into mfa_hardware_token (id, serial, token_type, seed_sealed, status, user_id, assigned_at)
      select id, serial, 'Duo D100', seed, 'assigned', uid, ${now}
      from unnest(${tokens.map((t) => t.id)}::uuid[], ${tokens.map((t) => t.serial)}::text[], ${tokens.map((t) => t.seed)}::text[],
                  ${tokens.map((t) => t.userId)}::uuid[]) as t(id, serial, seed, uid)`.execute(trx);
  }
  if (devices.length > 0) {
    await sql`
      insert into mfa_device (id, user_id, kind, name, capabilities, phone_number, platform, serial, token_type, secret_sealed, hardware_token_id, created_at)
      select id, uid, kind, name, string_to_array(caps, ';'), phone, platform, serial, tt, secret, tid, created
      from unnest(${devices.map((d) => d.id)}::uuid[], ${devices.map((d) => d.userId)}::uuid[], ${devices.map((d) => d.kind)}::text[],
                  ${devices.map((d) => d.name)}::text[], ${devices.map((d) => d.caps)}::text[], ${devices.map((d) => d.phone)}::text[],
                  ${devices.map((d) => d.platform)}::text[], ${devices.map((d) => d.serial)}::text[], ${devices.map((d) => d.tokenType)}::text[],
                  ${devices.map((d) => d.secret)}::text[], ${devices.map((d) => d.tokenId)}::uuid[], ${devices.map((d) => d.createdAt)}::timestamptz[])
        as t(id, uid, kind, name, caps, phone, platform, serial, tt, secret, tid, created)`.execute(trx);
  }
  if (codes.length > 0) {
    await sql`
      insert into mfa_bypass_code (user_id, code_hash, uses_left, expires_at, created_by, reuse_count)
      select uid, h, uses, exp, 'seed:org', uses
      from unnest(${codes.map((c) => c.userId)}::uuid[], ${codes.map((c) => c.hash)}::text[], ${codes.map((c) => c.uses)}::int[],
                  ${codes.map((c) => c.expires)}::timestamptz[]) as t(uid, h, uses, exp)`.execute(trx);
  }
}

/**
 * Appends `opts.events` events spread from the later of the last stored event and a year ago up to
 * now, batch by batch under the chain head's lock, hashed with the audit service's own chainHash.
 */
async function appendEvents(db: Kysely<Database>, opts: OrgSeedOptions, now: Date, batchSize: number) {
  // Who acts: a sample of the users; the first 20 of it are the very active ones (a fifth of all events).
  const people = (
    await sql<{ username: string; roles: string[] | null }>`
    select m.username, d.roles from mfa_user m left join directory_user d on d.upn = lower(m.username)
    order by md5(m.username) limit 50000`.execute(db)
  ).rows;
  if (people.length === 0) throw new Error('seed:org needs users to make audit events: add some with --users');
  const admins = people.filter((p) => p.roles?.length);
  const actors = admins.length > 0 ? admins : people.slice(0, 1);
  const last = await db.selectFrom('audit_event').select('occurred_at').orderBy('id', 'desc').limit(1).executeTakeFirst();
  const start = Math.max(last ? new Date(last.occurred_at).getTime() : 0, now.getTime() - YEAR_MS);
  const span = Math.max(1, now.getTime() - start);
  const rand = prng(0xa0d17 + Number(last ? 1 : 0) + people.length + start);

  for (let done = 0; done < opts.events;) {
    const n = Math.min(batchSize, opts.events - done);
    await db.transaction().execute(async (trx) => {
      const head = await trx.selectFrom('audit_head').select(['hash']).where('id', '=', 1).forUpdate().executeTakeFirstOrThrow();
      const ids = (
        await sql<{
          id: string;
        }>`select nextval(pg_get_serial_sequence('audit_event', 'id'))::text as id from generate_series(1, ${n})`.execute(trx)
      ).rows.map((r) => r.id);
      let prev = head.hash;
      const rows: (AuditEvent & { prevHash: string; hash: string })[] = [];
      for (let i = 0; i < n; i++) {
        const k = done + i;
        const occurredAt = new Date(start + Math.floor(((k + rand()) / opts.events) * span));
        const who = rand() < 0.2 ? people[Math.floor(rand() * Math.min(20, people.length))]! : people[Math.floor(rand() * people.length)]!;
        const t = pickEvent(rand());
        const actor = t.byAdmin ? actors[Math.floor(rand() * actors.length)]! : who;
        const event: AuditEvent = {
          id: ids[i]!,
          occurredAt,
          actorUpn: actor.username,
          actorRoles: actor.roles ?? [],
          target: who.username,
          action: t.action,
          outcome: t.outcome,
          reason: t.reason,
          requestId: randomUUID(),
          clientAddress: `10.${Math.floor(rand() * 256)}.${Math.floor(rand() * 256)}.${1 + Math.floor(rand() * 254)}`,
          details: t.details,
        };
        const hash = chainHash(prev, event);
        rows.push({ ...event, prevHash: prev, hash });
        prev = hash;
      }
      await sql`
        insert into audit_event (id, occurred_at, actor_upn, actor_roles, target_upn, action, outcome, reason, request_id, client_address, details, prev_hash, hash)
        select id, at, actor, case when roles = '' then '{}'::text[] else string_to_array(roles, ';') end, target, action, outcome, reason, rid, addr, details::jsonb, prev, hash
        from unnest(${rows.map((r) => r.id)}::bigint[], ${rows.map((r) => r.occurredAt)}::timestamptz[], ${rows.map((r) => r.actorUpn)}::text[],
                    ${rows.map((r) => r.actorRoles.join(';'))}::text[], ${rows.map((r) => r.target)}::text[], ${rows.map((r) => r.action)}::text[],
                    ${rows.map((r) => r.outcome)}::text[], ${rows.map((r) => r.reason)}::text[], ${rows.map((r) => r.requestId)}::text[],
                    ${rows.map((r) => r.clientAddress)}::text[], ${rows.map((r) => (r.details ? JSON.stringify(r.details) : null))}::text[],
                    ${rows.map((r) => r.prevHash)}::text[], ${rows.map((r) => r.hash)}::text[])
          as t(id, at, actor, roles, target, action, outcome, reason, rid, addr, details, prev, hash)`.execute(trx);
      await trx
        .updateTable('audit_head')
        .set({ hash: prev, last_event_id: Number(ids[n - 1]), updated_at: now })
        .where('id', '=', 1)
        .execute();
    });
    done += n;
    opts.onProgress?.('events', done, opts.events);
  }
}
