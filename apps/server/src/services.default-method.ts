import type { Kysely } from 'kysely';
import type { AppConfig } from './config.js';
import type { Database } from './db/schema.js';
import type { SelfServiceDeps } from './modules/common/self-service.js';
import { defaultMethodRepository } from './modules/default-method/default-method.repository.js';
import { createDefaultMethodService } from './modules/default-method/default-method.service.js';

/**
 * The default sign-in method side of the composition root (services.ts builds everything else), with
 * who decides what a sign-in offers first: Duo's own prompt, Entra's sign-in, or the portal's own page.
 */
export function buildDefaultMethod(config: Pick<AppConfig, 'idp'>, deps: SelfServiceDeps & { db: Kysely<Database> }) {
  const { db, ...self } = deps;
  const decidedBy = self.mfa.name === 'duo' ? 'mfa_provider' : config.idp.mode === 'embedded' ? 'portal' : 'identity_provider';
  return createDefaultMethodService({ ...self, repository: defaultMethodRepository(db), decidedBy });
}
