import type { Generated } from 'kysely';

/** (0024) Administrative units: the people some Helpdesk Administrators serve, by directory group and by person. */

export interface AdminUnitTable {
  id: Generated<string>;
  name: string;
  created_by: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}
/** Members of a unit through a directory (SCIM) group. */
export interface AdminUnitGroupTable {
  unit_id: string;
  group_id: string;
}
/** Members of a unit named one by one (`directory_user.upn`). */
export interface AdminUnitPersonTable {
  unit_id: string;
  upn: string;
}
/** Helpdesk Administrators assigned to a unit through a directory group. */
export interface AdminUnitHelpdeskGroupTable {
  unit_id: string;
  group_id: string;
}
/** Helpdesk Administrators assigned to a unit in person. */
export interface AdminUnitHelpdeskPersonTable {
  unit_id: string;
  upn: string;
}

export interface AdminUnitTables {
  admin_unit: AdminUnitTable;
  admin_unit_group: AdminUnitGroupTable;
  admin_unit_person: AdminUnitPersonTable;
  admin_unit_helpdesk_group: AdminUnitHelpdeskGroupTable;
  admin_unit_helpdesk_person: AdminUnitHelpdeskPersonTable;
}
