import type { ColumnType, Generated } from 'kysely';
import type { Json } from './columns.js';

/** The application's own state: its generated secrets, translation gaps reported by the web app, and the rate-limit buckets every instance shares. */

export interface AppSecretTable {
  name: string;
  value: Json<unknown>;
  created_at: Generated<Date>;
}
export interface MissingTranslationTable {
  lng: string;
  ns: string;
  key: string;
  fallback: string;
  reports: Generated<number>;
  first_seen_at: Generated<Date>;
  last_seen_at: Generated<Date>;
}
export interface RateLimitBucketTable {
  key: string;
  tokens: number;
  /** Milliseconds since the epoch (bigint: read as a string by some drivers). */
  updated_at_ms: ColumnType<string | number, number, number>;
  full_at_ms: ColumnType<string | number, number, number>;
}

export interface CoreTables {
  app_secret: AppSecretTable;
  missing_translation: MissingTranslationTable;
  rate_limit_bucket: RateLimitBucketTable;
}
