import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ScimToken } from '@mfa-portal/shared';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import type { AuditService } from '../audit/audit.service.js';
import { ScimError } from './scim-errors.js';
import { scimTokensRepository } from './scim-tokens.repository.js';

/**
 * SCIM bearer tokens: created by a Solution Administrator (shown once, stored as a SHA-256 hash: the
 * token is 256 random bits, so a slow hash adds nothing), listed with metadata, revoked; plus the
 * token of the environment (SCIM_TOKEN), named "SCIM_TOKEN" in the audit log.
 */

export const ENV_TOKEN_NAME = 'SCIM_TOKEN';
export const TOKEN_PREFIX = 'scim_';
/** Longest bearer value looked at (anything longer is not a token of ours). */
const MAX_BEARER_LENGTH = 512;

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest();

type Row = { id: string; name: string; created_by: string; created_at: Date; last_used_at: Date | null; revoked_at: Date | null };
const toToken = (r: Row): ScimToken => ({
  id: r.id,
  name: r.name,
  createdBy: r.created_by,
  createdAt: new Date(r.created_at).toISOString(),
  lastUsedAt: r.last_used_at ? new Date(r.last_used_at).toISOString() : null,
  revokedAt: r.revoked_at ? new Date(r.revoked_at).toISOString() : null,
});

export interface AdminActorContext {
  upn: string;
  roles: readonly string[];
  requestId: string;
  clientAddress: string | null;
}

export function createScimTokensService(deps: { db: Kysely<Database>; audit: AuditService; envToken: string | null; now?: () => Date }) {
  const { db, audit } = deps;
  const clock = deps.now ?? (() => new Date());
  const repo = scimTokensRepository(db);
  const envHash = deps.envToken ? sha256(deps.envToken) : null;
  const unauthorized = () => new ScimError(401, 'A valid bearer token is required.');

  return {
    hasEnvironmentToken: envHash !== null,

    /**
     * The name of the token in `Authorization: Bearer …` and the administrator who created it (null for
     * the environment's token); a SCIM 401 otherwise.
     */
    async authenticate(header: string | undefined): Promise<{ name: string; createdBy: string | null }> {
      const m = /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? '');
      const value = m?.[1];
      if (!value || value.length > MAX_BEARER_LENGTH) throw unauthorized();
      const hash = sha256(value);
      if (envHash && timingSafeEqual(hash, envHash)) return { name: ENV_TOKEN_NAME, createdBy: null };
      const row = await repo.findLiveByHash(hash.toString('hex'));
      if (!row) throw unauthorized();
      await repo.touch(row.id, clock());
      return { name: row.name, createdBy: row.created_by.toLowerCase() };
    },

    async list(): Promise<ScimToken[]> {
      return (await repo.list()).map(toToken);
    },

    async create(ctx: AdminActorContext, name: string): Promise<{ token: ScimToken; secret: string }> {
      const secret = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
      const now = clock();
      if (name.toUpperCase() === ENV_TOKEN_NAME) throw new AppError({ code: 'scim_token.name_taken', details: { field: 'name' } });
      try {
        return await db.transaction().execute(async (trx) => {
          const r = scimTokensRepository(trx);
          if (await r.findLiveByName(name)) throw new AppError({ code: 'scim_token.name_taken', details: { field: 'name' } });
          const row = await r.insert({ name, tokenHash: sha256(secret).toString('hex'), createdBy: ctx.upn.toLowerCase(), now });
          await audit.append(
            {
              actor: { upn: ctx.upn, roles: ctx.roles },
              target: null,
              action: 'admin.scim_token.create',
              outcome: 'success',
              requestId: ctx.requestId,
              clientAddress: ctx.clientAddress,
              details: { tokenId: row.id, tokenName: row.name },
            },
            { now },
          );
          return { token: toToken(row), secret };
        });
      } catch (err) {
        if (typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505')
          throw new AppError({ code: 'scim_token.name_taken', details: { field: 'name' } });
        throw err;
      }
    },

    async revoke(ctx: AdminActorContext, id: string): Promise<ScimToken> {
      if (!/^[0-9a-f-]{36}$/i.test(id)) throw new AppError({ code: 'scim_token.not_found' });
      const now = clock();
      return db.transaction().execute(async (trx) => {
        const row = await scimTokensRepository(trx).revoke(id, now);
        if (!row) throw new AppError({ code: 'scim_token.not_found' });
        await audit.append(
          {
            actor: { upn: ctx.upn, roles: ctx.roles },
            target: null,
            action: 'admin.scim_token.revoke',
            outcome: 'success',
            requestId: ctx.requestId,
            clientAddress: ctx.clientAddress,
            details: { tokenId: row.id, tokenName: row.name },
          },
          { now },
        );
        return toToken(row);
      });
    },
  };
}

export type ScimTokensService = ReturnType<typeof createScimTokensService>;
