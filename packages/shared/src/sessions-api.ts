import { z } from 'zod';

/** `POST /api/admin/users/:upn/sign-out-everywhere` (after a lost or stolen device): when the user's tokens stopped being accepted. */
export const adminSignOutEverywhereResponseSchema = z.object({ signedOutAt: z.string() });
export type AdminSignOutEverywhereResponse = z.infer<typeof adminSignOutEverywhereResponseSchema>;
