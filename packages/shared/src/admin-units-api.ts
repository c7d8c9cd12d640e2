import { z } from 'zod';
import { upnSchema } from './admin-api.js';
import { userText } from './user-text.js';

/**
 * Administrative units (`/api/admin/units`, Solution Administrators): a name, the people it holds (by
 * directory group and/or by person) and the Helpdesk Administrators assigned to it (in person or
 * through a directory group). A Helpdesk Administrator assigned to at least one unit finds, sees and
 * acts only on the people of their units.
 */

export const ADMIN_UNIT_NAME_MAX = 80;
/** Most groups, and most people, one list of a unit names. */
export const ADMIN_UNIT_LIST_MAX = 500;

export const adminUnitNameSchema = userText({ max: ADMIN_UNIT_NAME_MAX, min: 1, required: 'is required' });

const groupIds = z
  .array(z.uuid('must be a directory group id'), { message: 'must be a list of directory group ids' })
  .max(ADMIN_UNIT_LIST_MAX, `must list at most ${ADMIN_UNIT_LIST_MAX}`)
  .default([]);
const people = z
  .array(upnSchema, { message: 'must be a list of sign-in names' })
  .max(ADMIN_UNIT_LIST_MAX, `must list at most ${ADMIN_UNIT_LIST_MAX}`)
  .default([]);
const groupsAndPeople = z.object({ groups: groupIds, people }).default({ groups: [], people: [] });

/** A unit as the Solution Administrator defines it (create, or replace as a whole). Lists are sets: a repeat counts once. */
export const adminUnitBodySchema = z.object({
  name: adminUnitNameSchema,
  /** Who the unit holds. */
  members: groupsAndPeople,
  /** Helpdesk Administrators who serve it: in person (each must hold the role) or every member of a group who does. */
  helpdesk: groupsAndPeople,
});
export type AdminUnitBody = z.input<typeof adminUnitBodySchema>;

export const adminUnitParamsSchema = z.object({ id: z.uuid('must be a unit id') });

export const adminDirectoryGroupSchema = z.object({ id: z.string(), name: z.string(), memberCount: z.number().int() });
export type AdminDirectoryGroup = z.infer<typeof adminDirectoryGroupSchema>;
export const adminUnitPersonSchema = z.object({ upn: z.string(), displayName: z.string() });

export const adminUnitSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  members: z.object({
    groups: z.array(adminDirectoryGroupSchema),
    people: z.array(adminUnitPersonSchema),
    /** How many people the unit holds now (through its groups and by name, each once). */
    count: z.number().int(),
  }),
  helpdesk: z.object({ groups: z.array(adminDirectoryGroupSchema), people: z.array(adminUnitPersonSchema) }),
});
export type AdminUnit = z.infer<typeof adminUnitSchema>;
export const adminUnitsResponseSchema = z.object({ units: z.array(adminUnitSchema) });
export type AdminUnitsResponse = z.infer<typeof adminUnitsResponseSchema>;

export const adminDirectoryGroupsQuerySchema = z.object({ q: userText({ max: 100 }).default('') });
export const adminDirectoryGroupsResponseSchema = z.object({
  groups: z.array(adminDirectoryGroupSchema),
  /** True when more groups match than the page shows (type more of the name). */
  more: z.boolean(),
});
export type AdminDirectoryGroupsResponse = z.infer<typeof adminDirectoryGroupsResponseSchema>;

/**
 * Whom the caller can help: `everyone` (a Solution Administrator, or a helpdesk member assigned to no
 * unit while that is allowed), `units` (the people of the units listed), or `nobody` (a helpdesk
 * member assigned to no unit where HELPDESK_SCOPE_REQUIRED asks for one).
 */
export const adminReachSchema = z.object({
  reach: z.enum(['everyone', 'units', 'nobody']),
  units: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type AdminReach = z.infer<typeof adminReachSchema>;
