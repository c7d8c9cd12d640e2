import {
  ADMIN_IDENTITY_CHECK_FRESH_SECONDS,
  ADMIN_USER_ACTIONS,
  LOST_DEVICE_MAX_VALIDITY_SECONDS,
  type ActivityEvent,
  type AdminAuditQuery,
  type AdminAuditResponse,
  type AdminAuditVerifyResponse,
  type AdminLostDeviceProgress,
  type AdminLostDeviceResponse,
  type AdminToken,
  type AdminTokenImportResponse,
  type AdminUserActionName,
  type AdminUserDetail,
  type AdminUsersResponse,
  type AdminVerifyIdentityResponse,
  type AdminVerifyPushResponse,
  type AdminVerifyPushStatus,
  type CreateBypassCodesResponse,
  type Device,
  type PortalRole,
} from '@mfa-portal/shared';
import type { Actor, AdminGlobalAction, AdminUserAction, Decision, Policy } from '../../auth/policy.js';
import { AppError } from '../../lib/errors.js';
import type { HardwareTokenStatus } from '../../db/schema.js';
import { InventoryError, type Inventory, type InventoryToken } from '../../mfa/builtin/inventory.js';
import { mfaErrorToAppError } from '../../mfa/errors.js';
import { MfaError, type MfaProvider } from '../../mfa/port.js';
import { VERIFY_FAILURE_CODES, type VerificationService } from '../../mfa/verification.js';
import type { ChainedAuditEvent } from '../audit/audit-chain.js';
import type { PushService } from '../push/push.service.js';
import type { AuditFilter, AuditService } from '../audit/audit.service.js';
import { auditCsvHeader, auditCsvRow } from './audit-csv.js';
import type { DirectoryRepository, DirectoryUser } from './directory.repository.js';

/**
 * Administration rules (`/api/admin/...`, issue 5). Routes authorise first (with {@link authorizeUser}
 * / {@link authorizeGlobal}: a denial is audited and answered 403 before anything is read or changed);
 * this service then acts through the MFA provider for the target user and audits every action with
 * the actor, the role used, the reason and the ticket. Never a code or a secret in the audit log.
 */

export interface AdminContext {
  upn: string;
  roles: readonly string[];
  requestId: string;
  clientAddress: string | null;
}

/** Reason and ticket of a change (recorded, never interpreted). */
export interface Justification {
  reason?: string;
  ticket?: string;
}

export interface AdminServiceDeps {
  mfa: MfaProvider;
  audit: AuditService;
  verification: VerificationService;
  directory: DirectoryRepository;
  policy: Policy;
  /** Pushes started through the provider (verification push); absent: pushes answer 409. */
  pushes?: PushService;
  /** The builtin provider's token inventory; null with another provider (inventory actions answer 409). */
  inventory: Inventory | null;
  /** Where staff sign in and enrol (the activation link). */
  portalUrl: string;
  now?: () => Date;
}

export const AUDIT_CSV_MAX_ROWS = 50_000;
const ACTIVITY_ON_DETAIL = 20;

const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);

/** The policy action behind each user action shown on a user's page. */
const USER_ACTIONS: Record<AdminUserActionName, AdminUserAction> = {
  verify_identity: 'admin.user.verify_identity',
  create_bypass_codes: 'admin.user.create_bypass_codes',
  delete_device: 'admin.user.delete_device',
  resync_token: 'admin.user.resync_token',
  unlock: 'admin.user.unlock',
  send_activation: 'admin.user.send_activation',
};

export function toActivityEvent(e: ChainedAuditEvent): ActivityEvent & { clientAddress: string | null } {
  return {
    id: e.id,
    occurredAt: new Date(e.occurredAt).toISOString(),
    actorUpn: e.actorUpn,
    actorRoles: [...e.actorRoles],
    targetUpn: e.target,
    action: e.action,
    outcome: e.outcome === 'success' ? 'success' : 'failure',
    reason: e.reason,
    requestId: e.requestId,
    clientAddress: e.clientAddress,
    details: e.details ? { ...e.details } : null,
  };
}

const toAdminToken = (t: InventoryToken): AdminToken => ({
  serial: t.serial,
  tokenType: t.tokenType,
  status: t.status,
  assignedTo: t.assignedTo,
  assignedAt: isoOrNull(t.assignedAt),
  createdAt: iso(t.createdAt),
});

export function createAdminService(deps: AdminServiceDeps) {
  const { mfa, audit, verification, directory, policy } = deps;
  const clock = deps.now ?? (() => new Date());
  const actorOf = (ctx: AdminContext): Actor => ({ upn: ctx.upn, roles: ctx.roles });

  function protectionOf(user: DirectoryUser | null | undefined) {
    if (!user || user.roles === null) return { protected: true, reason: 'roles_unknown' as const };
    return policy.isProtected(user.roles) ? { protected: true, reason: 'restricted_role' as const } : { protected: false, reason: null };
  }

  function toAppError(err: unknown): AppError | null {
    if (err instanceof AppError) return err;
    if (err instanceof MfaError) return mfaErrorToAppError(err);
    if (err instanceof InventoryError) {
      switch (err.code) {
        case 'token_not_found':
          return new AppError(404, 'token.not_found');
        case 'token_not_assigned':
          return new AppError(409, 'token.not_assigned');
        case 'token_assigned':
          return new AppError(409, 'token.assigned');
        case 'token_retired':
          return new AppError(409, 'token.retired');
      }
    }
    return null;
  }

  async function denied(
    ctx: AdminContext,
    action: string,
    target: string | null,
    decision: Extract<Decision, { allow: false }>,
    j: Justification,
  ) {
    await audit.append({
      actor: actorOf(ctx),
      target,
      action,
      outcome: 'failure',
      reason: 'auth.forbidden',
      requestId: ctx.requestId,
      clientAddress: ctx.clientAddress,
      details: { role: decision.role, denyReason: decision.reason, ...(j.ticket ? { ticket: j.ticket } : {}) },
    });
    return new AppError(403, 'auth.forbidden', undefined, { reason: decision.reason });
  }

  /** Runs an admin change and audits it (success with `successDetails`, or failure with its error code). */
  async function audited<T>(
    ctx: AdminContext,
    role: PortalRole,
    action: string,
    target: string | null,
    j: Justification,
    details: Record<string, unknown>,
    fn: () => Promise<T>,
    successDetails?: (result: T) => Record<string, unknown>,
  ): Promise<T> {
    const common = { actor: actorOf(ctx), target, action, requestId: ctx.requestId, clientAddress: ctx.clientAddress };
    const base = { role, ...(j.reason ? { reason: j.reason } : {}), ...(j.ticket ? { ticket: j.ticket } : {}), ...details };
    let result: T;
    try {
      result = await fn();
    } catch (err) {
      const appError = toAppError(err);
      await audit.append({ ...common, outcome: 'failure', reason: appError?.code ?? 'server.internal', details: base });
      throw appError ?? err;
    }
    await audit.append({ ...common, outcome: 'success', details: { ...base, ...successDetails?.(result) } });
    return result;
  }

  function requireInventory(): Inventory {
    if (!deps.inventory)
      throw new AppError(409, 'mfa.not_supported_by_provider', undefined, { reason: 'The token inventory is kept at the MFA provider.' });
    return deps.inventory;
  }

  const deviceDetails = (d: Device) => ({ deviceId: d.id, kind: d.kind, deviceName: d.name, ...(d.serial ? { serial: d.serial } : {}) });

  return {
    /** The policy decision for an action on a user; a denial is audited and returned as the 403 to throw. */
    async authorizeUser(ctx: AdminContext, upn: string, action: AdminUserAction, j: Justification = {}): Promise<{ role: PortalRole }> {
      const target = (await directory.find(upn)) ?? null;
      const decision = policy.onUser(actorOf(ctx), { upn, roles: target?.roles ?? null }, action);
      if (!decision.allow) throw await denied(ctx, action, upn.toLowerCase(), decision, j);
      return { role: decision.role };
    },

    async authorizeGlobal(ctx: AdminContext, action: AdminGlobalAction, j: Justification = {}): Promise<{ role: PortalRole }> {
      const decision = policy.global(actorOf(ctx), action);
      if (!decision.allow) throw await denied(ctx, action, null, decision, j);
      return { role: decision.role };
    },

    async searchUsers(_ctx: AdminContext, query: { q: string; cursor?: string; limit: number }): Promise<AdminUsersResponse> {
      const page = await mfa.searchUsers(query.q, { cursor: query.cursor, limit: query.limit });
      const known = await directory.findMany(page.users.map((u) => u.username));
      return {
        users: page.users.map((u) => ({
          upn: u.username.toLowerCase(),
          email: u.email,
          realName: u.realName,
          status: u.status,
          protection: protectionOf(known.get(u.username.toLowerCase())),
        })),
        nextCursor: page.nextCursor,
      };
    },

    async getUser(ctx: AdminContext, upn: string): Promise<AdminUserDetail> {
      const now = clock();
      const [dir, data] = await Promise.all([directory.find(upn), mfa.getUserData(upn, now)]);
      if (!dir && data.status === 'not_provisioned') throw new AppError(404, 'admin.user_not_found');
      const [codes, page] = await Promise.all([
        data.status === 'not_provisioned' ? Promise.resolve([]) : mfa.listBypassCodes(upn, { now }),
        audit.listForUser(upn, { limit: ACTIVITY_ON_DETAIL }),
      ]);
      const actions = Object.fromEntries(
        ADMIN_USER_ACTIONS.map((name) => {
          const d = policy.onUser(actorOf(ctx), { upn, roles: dir?.roles ?? null }, USER_ACTIONS[name]);
          return [name, { allowed: d.allow, reason: d.allow ? null : d.reason }];
        }),
      ) as AdminUserDetail['actions'];
      return {
        user: {
          upn: upn.toLowerCase(),
          displayName: dir?.displayName ?? '',
          email: dir?.email ?? '',
          roles: dir?.roles ?? null,
          lastSeenAt: isoOrNull(dir?.lastSeenAt ?? null),
        },
        mfa: data,
        bypassCodes: codes,
        activity: page.events.map((e) => {
          const { clientAddress: _omit, ...rest } = toActivityEvent(e);
          return rest;
        }),
        protection: protectionOf(dir),
        actions,
      };
    },

    async verifyIdentity(
      ctx: AdminContext,
      role: PortalRole,
      upn: string,
      body: { deviceId?: string; code: string },
    ): Promise<AdminVerifyIdentityResponse> {
      const now = clock();
      const action = 'admin.user.verify_identity';
      return audited(
        ctx,
        role,
        action,
        upn,
        {},
        body.deviceId ? { deviceId: body.deviceId } : {},
        async () => {
          const result = await verification.verify({
            upn,
            code: body.code,
            purpose: 'admin_verify_identity',
            methods: ['passcode'],
            ...(body.deviceId ? { deviceId: body.deviceId } : {}),
            actor: actorOf(ctx),
            requestId: ctx.requestId,
            clientAddress: ctx.clientAddress,
            now,
          });
          if (result.ok) return { verified: true, reason: null, deviceId: result.deviceId, checkedAt: iso(now) };
          if (result.reason === 'rate_limited')
            throw new AppError(
              429,
              'request.rate_limited',
              undefined,
              { retryAfterSeconds: result.retryAfterSeconds },
              { 'retry-after': String(result.retryAfterSeconds) },
            );
          if (result.reason === 'not_provisioned') throw new AppError(404, 'mfa.user_not_provisioned');
          // A wrong, replayed or refused code is a result to show the helpdesk member, not an error.
          return { verified: false, reason: VERIFY_FAILURE_CODES[result.reason], deviceId: body.deviceId ?? null, checkedAt: iso(now) };
        },
        (r) => ({ verified: r.verified, ...(r.reason ? { result: r.reason } : {}) }),
      );
    },

    /**
     * Identity check by push (issue 6): a verification push to the user's phone. The answer carries the
     * confirmation code the helpdesk member reads to the caller (who sees it in the push), then
     * {@link verifyIdentityPushStatus} is polled. Start and result are both audited.
     */
    async verifyIdentityPush(ctx: AdminContext, role: PortalRole, upn: string, deviceId: string): Promise<AdminVerifyPushResponse> {
      const now = clock();
      // Unwanted pushes tire people into approving one: the target's verification budgets bound them.
      const limited = await verification.throttle({
        upn,
        clientAddress: ctx.clientAddress,
        action: 'admin.user.verify_identity_push',
        actor: actorOf(ctx),
        requestId: ctx.requestId,
        details: { role, deviceId },
      });
      if (limited)
        throw new AppError(
          429,
          'request.rate_limited',
          undefined,
          { retryAfterSeconds: limited.retryAfterSeconds },
          { 'retry-after': String(limited.retryAfterSeconds) },
        );
      const started = await audited(
        ctx,
        role,
        'admin.user.verify_identity_push',
        upn,
        {},
        { deviceId, method: 'push' },
        async () => {
          if (!deps.pushes) throw new MfaError('not_supported');
          return deps.pushes.start({ upn, deviceId, purpose: 'admin_verify_identity', actorUpn: ctx.upn, now });
        },
        (r) => ({ txid: r.push.txid }),
      );
      return { ...started.push, confirmationCode: started.confirmationCode ?? '' };
    },

    /** The state of a verification push this administrator started; its result is audited once. */
    async verifyIdentityPushStatus(ctx: AdminContext, role: PortalRole, upn: string, txid: string): Promise<AdminVerifyPushStatus> {
      if (!deps.pushes) throw mfaErrorToAppError(new MfaError('not_supported'));
      const polled = await deps.pushes
        .poll({ upn, txid, purpose: 'admin_verify_identity', actorUpn: ctx.upn, now: clock() })
        .catch((err: unknown) => {
          throw toAppError(err) ?? err;
        });
      const verified = polled.push.state === 'approved';
      if (polled.justCompleted) {
        await audit.append({
          actor: actorOf(ctx),
          target: upn,
          action: 'admin.user.verify_identity',
          outcome: verified ? 'success' : 'failure',
          reason: verified ? null : `push.${polled.push.state}`,
          requestId: ctx.requestId,
          clientAddress: ctx.clientAddress,
          details: {
            role,
            method: 'push',
            deviceId: polled.push.deviceId,
            txid: polled.push.txid,
            verified,
            ...(polled.detail ? { detail: polled.detail } : {}),
          },
        });
      }
      return { ...polled.push, verified };
    },

    async createBypassCodes(
      ctx: AdminContext,
      role: PortalRole,
      upn: string,
      body: { count: number; validitySeconds: number; reuseCount: number; replaceExisting: boolean } & Justification,
    ): Promise<CreateBypassCodesResponse> {
      const now = clock();
      const created = await audited(
        ctx,
        role,
        'admin.user.create_bypass_codes',
        upn,
        body,
        { count: body.count, validitySeconds: body.validitySeconds, reuseCount: body.reuseCount, replaceExisting: body.replaceExisting },
        () =>
          mfa.createBypassCodes(
            upn,
            {
              count: body.count,
              validitySeconds: body.validitySeconds,
              reuseCount: body.reuseCount,
              replaceExisting: body.replaceExisting,
              createdBy: ctx.upn,
            },
            { now },
          ),
        (r) => ({ bypassIds: r.codes.map((c) => c.id), replaced: r.replaced }),
      );
      return { codes: created.codes.map((c) => ({ ...c, expiresAt: iso(c.expiresAt) })), replaced: created.replaced };
    },

    async deleteDevice(
      ctx: AdminContext,
      role: PortalRole,
      upn: string,
      deviceId: string,
      body: { confirmLastDevice: boolean } & Justification,
    ) {
      const device = await audited(
        ctx,
        role,
        'admin.user.delete_device',
        upn,
        body,
        { deviceId, confirmLastDevice: body.confirmLastDevice },
        () => mfa.deleteDevice(upn, deviceId, { allowLast: body.confirmLastDevice }),
        deviceDetails,
      );
      return { device };
    },

    async resyncToken(ctx: AdminContext, role: PortalRole, upn: string, deviceId: string, body: { codes: string[] } & Justification) {
      const device = await audited(ctx, role, 'admin.user.resync_token', upn, body, { deviceId }, () =>
        mfa.resyncHardwareToken(upn, deviceId, body.codes, { now: clock() }),
      );
      return { device };
    },

    /**
     * The lost-device wizard's server step (after verify-identity): removes the lost device, then issues
     * one single-use bypass code valid at most 24 h; the user then enrols a new device and tests it.
     * Each step is audited; run again after an interruption, it skips a removal already done.
     */
    async lostDevice(
      ctx: AdminContext,
      role: PortalRole,
      upn: string,
      body: { deviceId: string; confirmLastDevice: boolean; validitySeconds: number } & Justification,
    ): Promise<AdminLostDeviceResponse> {
      const now = clock();
      const devices = await mfa.listDevices(upn).catch((err: unknown) => {
        throw toAppError(err) ?? err;
      });
      let deviceRemoved = false;
      if (devices.some((d) => d.id === body.deviceId)) {
        await audited(
          ctx,
          role,
          'admin.user.lost_device.remove_device',
          upn,
          body,
          // The devices kept: any other device is new (Duo gives no date of addition for a device).
          {
            deviceId: body.deviceId,
            confirmLastDevice: body.confirmLastDevice,
            keptDeviceIds: devices.filter((d) => d.id !== body.deviceId).map((d) => d.id),
          },
          () => mfa.deleteDevice(upn, body.deviceId, { allowLast: body.confirmLastDevice }),
          deviceDetails,
        );
        deviceRemoved = true;
      } else {
        // Resuming: only a device this wizard already removed for this user may be missing.
        const done = await audit.search(
          { target: upn, action: 'admin.user.lost_device.remove_device', outcome: 'success' },
          { limit: 100 },
        );
        if (!done.events.some((e) => e.details?.deviceId === body.deviceId)) throw new AppError(404, 'device.not_found');
      }
      const created = await audited(
        ctx,
        role,
        'admin.user.lost_device.issue_bypass_code',
        upn,
        body,
        { count: 1, validitySeconds: body.validitySeconds, reuseCount: 1 },
        () =>
          mfa.createBypassCodes(
            upn,
            { count: 1, validitySeconds: body.validitySeconds, reuseCount: 1, replaceExisting: false, createdBy: ctx.upn },
            { now },
          ),
        (r) => ({ bypassIds: r.codes.map((c) => c.id) }),
      );
      const code = created.codes[0]!;
      return {
        deviceRemoved,
        bypassCode: { id: code.id, code: code.code, expiresAt: iso(code.expiresAt), usesLeft: 1 },
        enrolmentUrl: deps.portalUrl,
      };
    },

    /**
     * Where the lost-device wizard stands for this user, from the audit log (every step is an audit
     * event) and the user's devices: the caller's recent identity check, then the latest case of the
     * last 24 hours: the removal, the newest code issued after it (and whether it is still unused), the
     * devices added since, and whether a code of one of them has been accepted since (an identity
     * check, a device test or a sign-in). Read-only; not audited (reading a user's page is not either).
     */
    async lostDeviceProgress(ctx: AdminContext, upn: string): Promise<AdminLostDeviceProgress> {
      const now = clock();
      const target = upn.toLowerCase();
      const at = (e: ChainedAuditEvent) => new Date(e.occurredAt);
      const text = (v: unknown) => (typeof v === 'string' ? v : null);
      const [steps, checks] = await Promise.all([
        audit.search(
          {
            target,
            action: 'admin.user.lost_device.*',
            outcome: 'success',
            from: new Date(now.getTime() - LOST_DEVICE_MAX_VALIDITY_SECONDS * 1000),
          },
          { limit: 100 },
        ),
        audit.search(
          {
            actor: ctx.upn,
            target,
            action: 'admin.user.verify_identity',
            outcome: 'success',
            from: new Date(now.getTime() - ADMIN_IDENTITY_CHECK_FRESH_SECONDS * 1000),
          },
          { limit: 20 },
        ),
      ]);
      // Newest first: the first verified check, the latest removal, the newest code issued after it.
      const check = checks.events.find((e) => e.details?.verified === true);
      const identityCheck = check ? { checkedAt: iso(at(check)), deviceId: text(check.details?.deviceId) } : null;
      const removal = steps.events.find((e) => e.action === 'admin.user.lost_device.remove_device');
      if (!removal) return { identityCheck, case: null };
      const issue = steps.events.find((e) => e.action === 'admin.user.lost_device.issue_bypass_code' && Number(e.id) > Number(removal.id));
      const [devices, codes] = await Promise.all([
        mfa.listDevices(upn),
        issue ? mfa.listBypassCodes(upn, { now }) : Promise.resolve([]),
      ]).catch((err: unknown) => {
        throw toAppError(err) ?? err;
      });
      const removedAt = at(removal);
      // New: not among the devices kept at the removal (when recorded), else added after it (builtin dates
      // its devices; Duo does not, its devices carry the user's creation date).
      const keptIds = Array.isArray(removal.details?.keptDeviceIds) ? new Set(removal.details.keptDeviceIds.map(String)) : null;
      const newDevices = devices.filter((d) => (keptIds ? !keptIds.has(d.id) : Date.parse(d.createdAt) > removedAt.getTime()));
      let tested: { deviceId: string; testedAt: string } | null = null;
      if (newDevices.length > 0) {
        const ids = new Set(newDevices.map((d) => d.id));
        const accepted = await audit.search({ target, action: 'mfa.verify', outcome: 'success', from: removedAt }, { limit: 100 });
        const hit = accepted.events.find((e) => ids.has(text(e.details?.deviceId) ?? ''));
        if (hit) tested = { deviceId: text(hit.details?.deviceId)!, testedAt: iso(at(hit)) };
      }
      const codeId = issue && Array.isArray(issue.details?.bypassIds) ? text(issue.details.bypassIds[0]) : null;
      const live = codeId ? codes.find((c) => c.id === codeId) : undefined;
      return {
        identityCheck,
        case: {
          startedAt: iso(removedAt),
          actorUpn: removal.actorUpn,
          reason: text(removal.details?.reason),
          ticket: text(removal.details?.ticket),
          removedDevice: {
            id: text(removal.details?.deviceId) ?? '',
            name: text(removal.details?.deviceName),
            kind: text(removal.details?.kind),
            removedAt: iso(removedAt),
          },
          bypassCode:
            issue && codeId
              ? { id: codeId, issuedAt: iso(at(issue)), expiresAt: live ? live.expiresAt : null, usesLeft: live ? live.usesLeft : 0 }
              : null,
          newDevices,
          tested,
        },
      };
    },

    async unlock(ctx: AdminContext, role: PortalRole, upn: string, body: Justification) {
      const account = await audited(
        ctx,
        role,
        'admin.user.unlock',
        upn,
        body,
        {},
        () => mfa.unlockUser(upn, { now: clock() }),
        (a) => ({
          status: a.status,
        }),
      );
      return { status: account.status, statusReason: account.statusReason };
    },

    async sendActivation(ctx: AdminContext, role: PortalRole, upn: string, body: Justification) {
      return audited(
        ctx,
        role,
        'admin.user.send_activation',
        upn,
        body,
        {},
        async () => {
          if (!(await mfa.getAccount(upn, clock()))) throw new AppError(404, 'mfa.user_not_provisioned');
          // No e-mail is sent: the administrator gives the user the portal's address, where they add a device.
          return { activationUrl: deps.portalUrl, emailSent: false as const };
        },
        () => ({ emailSent: false }),
      );
    },

    // --- inventory ---

    async listTokens(query: { q?: string; status?: HardwareTokenStatus; limit: number }) {
      return { tokens: (await requireInventory().list(query)).map(toAdminToken) };
    },

    async importTokens(ctx: AdminContext, role: PortalRole, csv: string, j: Justification): Promise<AdminTokenImportResponse> {
      return audited(
        ctx,
        role,
        'admin.inventory.import',
        null,
        j,
        {},
        async () => {
          const report = await requireInventory().importCsv(csv);
          if (report.refused.some((r) => r.reason === 'header_missing'))
            throw new AppError(400, 'token.import_invalid', undefined, {
              field: 'csv',
              reason: 'The first line must be the header serial,seed.',
            });
          return report;
        },
        (r) => ({ imported: r.imported, refused: r.refused.map((x) => ({ line: x.line, serial: x.serial, why: x.reason })) }),
      );
    },

    async unassignToken(ctx: AdminContext, role: PortalRole, serial: string, j: Justification) {
      const inventory = requireInventory();
      const holder = (await inventory.find(serial))?.assignedTo ?? null;
      // Taking a token from its holder removes their device: the rules of acting on that user apply too
      // (never one's own, a protected holder only by a Solution Administrator).
      if (holder) {
        const target = await directory.find(holder);
        const decision = policy.onUser(actorOf(ctx), { upn: holder, roles: target?.roles ?? null }, 'admin.user.delete_device');
        if (!decision.allow) throw await denied(ctx, 'admin.inventory.unassign', holder.toLowerCase(), decision, j);
      }
      const result = await audited(ctx, role, 'admin.inventory.unassign', holder, j, { serial }, () => inventory.unassign(serial, clock()));
      return toAdminToken(result.token);
    },

    async retireToken(ctx: AdminContext, role: PortalRole, serial: string, j: Justification) {
      const inventory = requireInventory();
      return toAdminToken(await audited(ctx, role, 'admin.inventory.retire', null, j, { serial }, () => inventory.retire(serial, clock())));
    },

    // --- audit log ---

    async auditLog(query: AdminAuditQuery): Promise<AdminAuditResponse> {
      const page = await audit.search(filterOf(query), { cursor: query.cursor, limit: query.limit });
      return { events: page.events.map(toActivityEvent), nextCursor: page.nextCursor };
    },

    /** The filtered log as CSV (header row first, newest first), at most {@link AUDIT_CSV_MAX_ROWS} rows. */
    async auditCsv(query: AdminAuditQuery): Promise<string> {
      const lines = [auditCsvHeader()];
      let cursor: string | undefined;
      do {
        const page = await audit.search(filterOf(query), { cursor, limit: 1000 });
        for (const e of page.events) lines.push(auditCsvRow(e));
        cursor = page.nextCursor ?? undefined;
      } while (cursor && lines.length <= AUDIT_CSV_MAX_ROWS);
      return `${lines.join('\r\n')}\r\n`;
    },

    async auditVerify(): Promise<AdminAuditVerifyResponse> {
      const r = await audit.verify();
      return r.ok ? { ok: true, count: r.count } : { ok: false, brokenAt: r.brokenAt, id: r.id, reason: r.reason };
    },
  };
}

function filterOf(q: AdminAuditQuery): AuditFilter {
  return {
    ...(q.actor ? { actor: q.actor } : {}),
    ...(q.target ? { target: q.target } : {}),
    ...(q.action ? { action: q.action } : {}),
    ...(q.outcome ? { outcome: q.outcome } : {}),
    ...(q.from ? { from: new Date(q.from) } : {}),
    ...(q.to ? { to: new Date(q.to) } : {}),
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
