import { describe, expect, it } from 'vitest';
import { serviceDeskLinkProblem, serviceDeskTextProblem } from './service-desk.js';

describe('serviceDeskLinkProblem', () => {
  it.each([
    'tel:+442079460000',
    'tel:+44-20-7946-0000',
    'tel:0800123456',
    'mailto:servicedesk@example.org',
    'https://servicedesk.example.org/',
    'https://example.org/help?x=1#top',
  ])('accepts %s', (link) => {
    expect(serviceDeskLinkProblem(link)).toBeNull();
  });

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'http://servicedesk.example.org/',
    'ftp://example.org/',
    '//example.org/',
    '/help',
    'servicedesk@example.org',
    'tel:+44 20 7946 0000',
    'tel:call-me',
    'tel:',
    'mailto:a@example.org,b@example.org',
    'mailto:a@example.org?subject=hi',
    'mailto:nobody',
    'https://user:pass@example.org/',
    'https:example.org',
    'https://exa mple.org/',
    'https://example.org/\u0000',
    `https://example.org/${'a'.repeat(600)}`,
  ])('refuses %s', (link) => {
    expect(serviceDeskLinkProblem(link)).toEqual(expect.any(String));
  });
});

describe('serviceDeskTextProblem', () => {
  it('accepts a name and number', () => {
    expect(serviceDeskTextProblem('IT Service Desk, +44 20 7946 0000 <ext. 4>')).toBeNull();
  });

  it('refuses empty, overlong and control characters', () => {
    expect(serviceDeskTextProblem('   ')).toEqual(expect.any(String));
    expect(serviceDeskTextProblem('a'.repeat(201))).toEqual(expect.any(String));
    expect(serviceDeskTextProblem('Desk\u0007')).toEqual(expect.any(String));
    expect(serviceDeskTextProblem('Desk\nline')).toEqual(expect.any(String));
  });
});
