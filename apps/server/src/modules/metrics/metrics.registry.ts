import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The portal's Prometheus metrics, built once by the composition root (app.ts) and handed to what
 * records them. Labels hold only bounded, non-personal values: route patterns, methods, status
 * codes, audit actions, error codes, provider operations — never a user name, address or code.
 */
export interface PortalMetrics {
  registry: Registry;
  httpRequestDuration: Histogram<'method' | 'route' | 'status_code'>;
  httpRequestsInFlight: Gauge;
  rateLimitRefusals: Counter<'route'>;
  auditAppends: Counter<'action' | 'outcome'>;
  auditChainVerifications: Counter<'result'>;
  signInSteps: Counter<'step' | 'outcome'>;
  secondFactor: Counter<'purpose' | 'method' | 'outcome' | 'reason'>;
  lockouts: Counter<'purpose'>;
  apiAuthentications: Counter<'outcome'>;
  mfaProviderCalls: Histogram<'provider' | 'operation' | 'outcome'>;
  mfaProviderErrors: Counter<'provider' | 'operation' | 'code'>;
  mfaProviderRetries: Counter<'provider' | 'reason'>;
  mfaProviderRetryWaitSeconds: Counter<'provider' | 'reason'>;
  readCacheLookups: Counter<'cache' | 'result'>;
  changeFeedListening: Gauge;
  changeFeedHeartbeatsMissed: Counter;
  pushesStarted: Counter<'kind'>;
  pushAnswers: Counter<'outcome'>;
  webPushDeliveries: Counter<'outcome'>;
  sseStreamsOpen: Gauge<'kind'>;
  siemDeliveries: Counter<'stream'>;
  siemFailedAttempts: Counter<'stream'>;
  siemPendingEvents: Gauge<'stream'>;
  siemOldestPendingAge: Gauge<'stream'>;
}

export interface PoolStatsSource {
  poolStats?(): { total: number; idle: number; waiting: number; max: number };
}

/** Default process gauges whose names end in `_total` (a counter's suffix). */
export const MISNAMED_DEFAULT_GAUGES = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

export function createMetrics(opts: { database?: PoolStatsSource; collectDefaults?: boolean } = {}): PortalMetrics {
  const registry = new Registry();
  // Process metrics (CPU, memory, file descriptors) and Node's (event-loop lag, heap, GC).
  if (opts.collectDefaults !== false) {
    collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
    // prom-client also reports each of these counts as a gauge named `…_total`, which Prometheus keeps
    // for counters (`promtool check metrics` refuses it). The same counts stay, by type, in the gauges
    // `nodejs_active_handles`, `nodejs_active_requests` and `nodejs_active_resources` (sum them).
    for (const name of MISNAMED_DEFAULT_GAUGES) registry.removeSingleMetric(name);
  }
  const registers = [registry];

  const poolGauge = (name: string, help: string, pick: (s: { total: number; idle: number; waiting: number; max: number }) => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        const stats = opts.database?.poolStats?.();
        if (stats) this.set(pick(stats));
      },
    });
  poolGauge('portal_db_pool_connections', 'Database connections open in the pool.', (s) => s.total);
  poolGauge('portal_db_pool_idle_connections', 'Database connections open and idle.', (s) => s.idle);
  poolGauge('portal_db_pool_waiting_requests', 'Queries waiting for a database connection.', (s) => s.waiting);
  poolGauge('portal_db_pool_max_connections', 'Largest number of database connections the pool opens.', (s) => s.max);

  return {
    registry,
    httpRequestDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Duration of HTTP requests, by method, route pattern and status code.',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    httpRequestsInFlight: new Gauge({
      name: 'portal_http_requests_in_flight',
      help: 'HTTP requests received and not yet answered.',
      registers,
    }),
    rateLimitRefusals: new Counter({
      name: 'portal_rate_limit_refusals_total',
      help: 'Requests refused with 429 by a rate limit, by route pattern.',
      labelNames: ['route'],
      registers,
    }),
    auditAppends: new Counter({
      name: 'portal_audit_appends_total',
      help: 'Events appended to the audit log, by action and outcome.',
      labelNames: ['action', 'outcome'],
      registers,
    }),
    auditChainVerifications: new Counter({
      name: 'portal_audit_chain_verifications_total',
      help: 'Verifications of the audit hash chain, by result (ok, broken, error).',
      labelNames: ['result'],
      registers,
    }),
    signInSteps: new Counter({
      name: 'portal_sign_in_steps_total',
      help: 'Embedded identity provider sign-in steps (password, second_factor), by outcome (success, failure, refused).',
      labelNames: ['step', 'outcome'],
      registers,
    }),
    secondFactor: new Counter({
      name: 'portal_second_factor_verifications_total',
      help: 'Second-factor checks (sign-in and step-up), by purpose, method (passcode, bypass, push; none when no code matched), outcome and reason code.',
      labelNames: ['purpose', 'method', 'outcome', 'reason'],
      registers,
    }),
    lockouts: new Counter({
      name: 'portal_lockouts_total',
      help: 'Accounts locked after too many failed second-factor checks, by purpose.',
      labelNames: ['purpose'],
      registers,
    }),
    apiAuthentications: new Counter({
      name: 'portal_api_authentications_total',
      help: 'Bearer-token checks of API requests, by outcome (success or the error code).',
      labelNames: ['outcome'],
      registers,
    }),
    mfaProviderCalls: new Histogram({
      name: 'portal_mfa_provider_call_duration_seconds',
      help: 'Duration of MFA provider calls, by provider, operation and outcome (ok or error).',
      labelNames: ['provider', 'operation', 'outcome'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    mfaProviderErrors: new Counter({
      name: 'portal_mfa_provider_errors_total',
      help: 'MFA provider calls that failed, by provider, operation and error code (unexpected: not a refusal of the provider).',
      labelNames: ['provider', 'operation', 'code'],
      registers,
    }),
    mfaProviderRetries: new Counter({
      name: 'portal_mfa_provider_retries_total',
      help: 'Requests to the MFA provider tried again, by provider and reason (rate_limited: throttled; unavailable: 5xx or no answer).',
      labelNames: ['provider', 'reason'],
      registers,
    }),
    mfaProviderRetryWaitSeconds: new Counter({
      name: 'portal_mfa_provider_retry_wait_seconds_total',
      help: 'Time spent waiting before trying the MFA provider again, by provider and reason.',
      labelNames: ['provider', 'reason'],
      registers,
    }),
    readCacheLookups: new Counter({
      name: 'portal_read_cache_lookups_total',
      help: 'Lookups of the per-user read caches (token, revocation, user_data), by result (hit or miss).',
      labelNames: ['cache', 'result'],
      registers,
    }),
    changeFeedListening: new Gauge({
      name: 'portal_change_feed_listening',
      help: '1 while this instance hears the database change feed and its heartbeat (its read caches keep values), 0 otherwise.',
      registers,
    }),
    changeFeedHeartbeatsMissed: new Counter({
      name: 'portal_change_feed_heartbeats_missed_total',
      help: 'Heartbeats of the change feed that did not come back in time (the feed counted as down, and listened again on a new connection).',
      registers,
    }),
    pushesStarted: new Counter({
      name: 'portal_pushes_started_total',
      help: 'Pushes the MFA provider accepted, by kind (sign_in, step_up, device_test, admin_verify_identity).',
      labelNames: ['kind'],
      registers,
    }),
    pushAnswers: new Counter({
      name: 'portal_push_answers_total',
      help: "Answers from the portal's authenticator app, by outcome (approved, denied, number_mismatch, refused, reported).",
      labelNames: ['outcome'],
      registers,
    }),
    webPushDeliveries: new Counter({
      name: 'portal_web_push_deliveries_total',
      help: 'Web Push messages handed to a push service, by outcome (ok or failed; a failure never fails the push).',
      labelNames: ['outcome'],
      registers,
    }),
    sseStreamsOpen: new Gauge({
      name: 'portal_sse_streams_open',
      help: 'Server-sent event streams open on this instance, by kind (app: the authenticator app; browser: a page waiting for a push).',
      labelNames: ['kind'],
      registers,
    }),
    siemDeliveries: new Counter({
      name: 'portal_siem_deliveries_total',
      help: 'Audit events delivered to an external stream (SIEM), by stream (syslog, webhook).',
      labelNames: ['stream'],
      registers,
    }),
    siemFailedAttempts: new Counter({
      name: 'portal_siem_failed_attempts_total',
      help: 'Attempts to send audit events to an external stream that failed (they stay pending and are sent again), by stream.',
      labelNames: ['stream'],
      registers,
    }),
    siemPendingEvents: new Gauge({
      name: 'portal_siem_pending_events',
      help: 'Audit events waiting to be delivered to an external stream, by stream (as this instance last counted).',
      labelNames: ['stream'],
      registers,
    }),
    siemOldestPendingAge: new Gauge({
      name: 'portal_siem_oldest_pending_age_seconds',
      help: 'How long the oldest audit event waiting for an external stream has waited, by stream (0 when none waits).',
      labelNames: ['stream'],
      registers,
    }),
  };
}
