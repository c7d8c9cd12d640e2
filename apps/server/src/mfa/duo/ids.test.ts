import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { portalIdOf, uuidV5 } from './ids.js';

describe('portal ids of Duo objects', () => {
  it('are RFC 9562 version-5 UUIDs (known vector: DNS namespace, "python.org")', () => {
    expect(uuidV5('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'python.org')).toBe('886313e1-3b8a-5372-9b90-0c9aee199e5d');
  });

  it('are stable, differ by kind and id, and pass the routes’ id validation', () => {
    const phone = portalIdOf('phone', 'DPFZRS9FB0D46QFTM899');
    expect(portalIdOf('phone', 'DPFZRS9FB0D46QFTM899')).toBe(phone);
    expect(portalIdOf('token', 'DPFZRS9FB0D46QFTM899')).not.toBe(phone);
    expect(portalIdOf('phone', 'DPFZRS9FB0D46QFTM898')).not.toBe(phone);
    expect(z.uuid().safeParse(phone).success).toBe(true);
  });
});
