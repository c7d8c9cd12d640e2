/** Public surface of the administration feature: loaded on demand, for administrators only. */
export const loadAdminArea = () => import('./AdminArea');
