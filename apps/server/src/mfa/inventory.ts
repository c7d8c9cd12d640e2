import type { HardwareTokenStatus } from '../db/schema.js';

/**
 * The hardware-token inventory as the administration module sees it (a port next to the MFA
 * provider's): the builtin provider keeps one (mfa/builtin/inventory.ts); Duo keeps its own.
 */

export interface InventoryToken {
  serial: string;
  tokenType: string;
  status: HardwareTokenStatus;
  assignedTo: string | null;
  assignedAt: Date | null;
  createdAt: Date;
  /** How many devices the holder has, this token's included (null: nobody holds it). */
  holderDevices: number | null;
}

export interface ImportRefusal {
  line: number;
  serial: string | null;
  reason: 'header_missing' | 'column_count' | 'serial_invalid' | 'seed_invalid' | 'duplicate_in_file' | 'serial_exists' | 'too_many_rows';
}

export interface ImportReport {
  imported: number;
  refused: ImportRefusal[];
}

export interface TokenInventory {
  list(filter: { q?: string; status?: HardwareTokenStatus; limit: number }): Promise<InventoryToken[]>;
  find(serial: string): Promise<InventoryToken | null>;
  /** Imports `serial,seed` rows (seeds in hex); valid rows are imported, the others reported. */
  importCsv(text: string): Promise<ImportReport>;
  /**
   * Takes a token from its holder (their device of it goes; the counter stays). Refuses (`last_device`)
   * to take the holder's only device unless `allowLast`.
   */
  unassign(serial: string, opts?: { at?: Date; allowLast?: boolean }): Promise<{ token: InventoryToken; formerHolder: string }>;
  retire(serial: string, at?: Date): Promise<InventoryToken>;
}
