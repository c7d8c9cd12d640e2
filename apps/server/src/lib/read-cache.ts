import type { ChangeListener } from '../db/change-feed.js';

/**
 * A bounded in-memory cache of reads that other writers can change: a signed-in user's MFA
 * data and session revocation, asked on every API call of theirs. It is only as good as its
 * invalidation, so it keeps nothing unless it is *live* (its change feed listening: db/change-feed.ts),
 * and a read that raced with an invalidation is answered but not kept.
 *
 * - `get` answers the kept value, or loads it; the value is kept for `ttlMs(value)` (0: not kept), a
 *   safety net and the bound for values that change with time alone (a code expiring).
 * - `invalidate(keys)` and `clear()` drop values and make every load in flight forget its result.
 * - Values are shared between callers: never mutate one.
 */
export interface ReadCacheOptions<V> {
  /** A name for metrics and logs. */
  name: string;
  maxEntries: number;
  /** How long to keep this value, from now (milliseconds); 0 or less: do not keep it. */
  ttlMs: (value: V, now: number) => number;
  now?: () => number;
  /** Each lookup: whether it was answered from memory. */
  onLookup?: (hit: boolean) => void;
}

export class ReadCache<V> implements ChangeListener {
  readonly name: string;
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();
  private readonly now: () => number;
  /** Bumped by every invalidation: a load that saw another epoch start is not kept. */
  private epoch = 0;
  private live = false;

  constructor(private readonly opts: ReadCacheOptions<V>) {
    this.name = opts.name;
    this.now = opts.now ?? (() => Date.now());
  }

  /** Whether values are kept (the change feed is listening). Either way, everything kept so far goes. */
  setLive(live: boolean): void {
    this.live = live;
    this.clear();
  }

  get isLive(): boolean {
    return this.live;
  }

  get size(): number {
    return this.entries.size;
  }

  async get(key: string, load: () => Promise<V>): Promise<V> {
    const now = this.now();
    const kept = this.entries.get(key);
    if (kept !== undefined) {
      if (kept.expiresAt > now) {
        this.opts.onLookup?.(true);
        return kept.value;
      }
      this.entries.delete(key);
    }
    this.opts.onLookup?.(false);
    const epoch = this.epoch;
    const value = await load();
    if (this.live && epoch === this.epoch) {
      const ttl = this.opts.ttlMs(value, now);
      if (ttl > 0) {
        this.entries.set(key, { value, expiresAt: now + ttl });
        // Oldest first (Map order): a bounded memory whatever the organisation's size.
        if (this.entries.size > this.opts.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
      }
    }
    return value;
  }

  invalidate(keys: Iterable<string>): void {
    this.epoch++;
    for (const key of keys) this.entries.delete(key);
  }

  clear(): void {
    this.epoch++;
    this.entries.clear();
  }
}
