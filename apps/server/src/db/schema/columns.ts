import type { ColumnType } from 'kysely';

/** Column types the table parts share: timestamps as the drivers read and write them, and JSON stored as text. */

export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
export type Json<T> = ColumnType<T, string, string>;
