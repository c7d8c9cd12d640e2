import { describe, expect, it } from 'vitest';
import { canonicalScimUrl } from './scim-paths.js';

describe('SCIM endpoints as lenient clients spell them', () => {
  it.each([
    ['/scim/v2/users', '/scim/v2/Users'],
    ['/scim/v2/Users/?filter=userName%20eq%20%22a%22', '/scim/v2/Users?filter=userName%20eq%20%22a%22'],
    ['/scim/v2/USERS/AbC-123', '/scim/v2/Users/AbC-123'],
    ['/scim/v2/groups/', '/scim/v2/Groups'],
    ['/SCIM/V2/serviceproviderconfig', '/scim/v2/ServiceProviderConfig'],
    ['/scim/v2/resourcetypes/user', '/scim/v2/ResourceTypes/user'],
    ['/scim/v2/Schemas', '/scim/v2/Schemas'],
    ['/portal/scim/v2/users/', '/portal/scim/v2/Users'],
  ])('%s reads as %s', (url, canonical) => {
    const base = url.toLowerCase().startsWith('/portal') ? '/portal/scim/v2' : '/scim/v2';
    expect(canonicalScimUrl(url, base)).toBe(canonical);
  });

  it('leaves everything else as sent', () => {
    for (const url of ['/api/me/devices/', '/scim/v2x/users', '/Users', '/scim/v2/Unknown/', '/scim/v2/Users/Id-With-Case']) {
      const expected = url === '/scim/v2/Unknown/' ? '/scim/v2/Unknown' : url;
      expect(canonicalScimUrl(url, '/scim/v2')).toBe(expected);
    }
  });
});
