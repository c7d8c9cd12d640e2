import { describe, expect, it } from 'vitest';
import { ADMIN_ROUTES, MAIN_ROUTES, returnPathOf } from './main-routes';

describe('routes', () => {
  it('returns from an "add a device" page only to the lost-device wizard, otherwise to the overview', () => {
    expect(returnPathOf({ returnTo: MAIN_ROUTES.lostDevice })).toBe('/devices/lost');
    expect(returnPathOf({ returnTo: 'https://evil.example.com/' })).toBe('/');
    expect(returnPathOf(null)).toBe('/');
    expect(returnPathOf(undefined)).toBe('/');
  });

  it("ends a user's page with a slash (an address ending in .com would look like a file to the server)", () => {
    expect(ADMIN_ROUTES.user('bob@example.com')).toBe('/admin/users/bob%40example.com/');
    expect(ADMIN_ROUTES.lostDevice('bob@example.com')).toBe('/admin/users/bob%40example.com/lost-device');
  });
});
