import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { configProblems } from '../test/support/config-problems.js';

describe('SERVICE_DESK_CONTACT and SERVICE_DESK_LINK', () => {
  it('are not configured by default: no contact is shown', () => {
    expect(loadConfig({}).serviceDesk).toBeNull();
  });

  it('take a text alone, or a text with a tel:, mailto: or https: link', () => {
    expect(loadConfig({ SERVICE_DESK_CONTACT: '  IT Service Desk, extension 4000 ' }).serviceDesk).toEqual({
      text: 'IT Service Desk, extension 4000',
      link: null,
    });
    for (const link of ['tel:+442079460000', 'mailto:servicedesk@example.org', 'https://servicedesk.example.org/new']) {
      expect(loadConfig({ SERVICE_DESK_CONTACT: 'IT Service Desk', SERVICE_DESK_LINK: link }).serviceDesk).toEqual({
        text: 'IT Service Desk',
        link,
      });
    }
  });

  it.each([
    'javascript:alert(1)',
    'data:text/html,hi',
    'http://servicedesk.example.org/',
    'servicedesk@example.org',
    'tel:+44 20 7946 0000',
  ])('refuses the link %s, naming the variable', (link) => {
    const found = configProblems({ SERVICE_DESK_CONTACT: 'IT Service Desk', SERVICE_DESK_LINK: link });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^SERVICE_DESK_LINK: /);
  });

  it('refuses a link without the text it is shown as', () => {
    expect(configProblems({ SERVICE_DESK_LINK: 'tel:+442079460000' })).toEqual([
      'SERVICE_DESK_LINK: is only used with SERVICE_DESK_CONTACT (the text the link is shown as) (got "tel:+442079460000")',
    ]);
  });

  it('refuses a text with control characters or over 200 characters', () => {
    expect(configProblems({ SERVICE_DESK_CONTACT: 'Desk\u0007' })[0]).toMatch(/^SERVICE_DESK_CONTACT: must not contain control characters/);
    expect(configProblems({ SERVICE_DESK_CONTACT: 'x'.repeat(201) })[0]).toMatch(/^SERVICE_DESK_CONTACT: must be at most 200 characters/);
  });
});
