import { describe, expect, it } from 'vitest';
import { isUserText, userText, USER_TEXT_MESSAGES } from './user-text.js';

describe('userText', () => {
  const name = userText({ max: 5, min: 1 });
  const first = (v: unknown) => name.safeParse(v).error?.issues[0]?.message;

  it('trims and accepts ordinary text, emoji included', () => {
    expect(name.parse(' Pixel ')).toBe('Pixel');
    expect(name.parse('📱 8')).toBe('📱 8');
  });

  it('refuses a NUL, an unpaired surrogate and control characters, naming why', () => {
    expect(first('a\u0000b')).toBe(USER_TEXT_MESSAGES.nul);
    expect(first('a\ud800')).toBe(USER_TEXT_MESSAGES.surrogate);
    expect(first('\udc00')).toBe(USER_TEXT_MESSAGES.surrogate);
    expect(first('a\u0007')).toBe(USER_TEXT_MESSAGES.control);
    expect(first('a\u0085')).toBe(USER_TEXT_MESSAGES.control);
    expect(first('a\nb')).toBe(USER_TEXT_MESSAGES.control);
  });

  it('allows tabs and new lines in a multi-line field only', () => {
    expect(userText({ max: 20, multiline: true }).parse('one\ntwo\tthree')).toBe('one\ntwo\tthree');
    expect(isUserText('one\ntwo', { multiline: true })).toBe(true);
    expect(isUserText('one\ntwo')).toBe(false);
  });

  it('enforces the length and the type', () => {
    expect(first('toolong')).toBe('must be at most 5 characters');
    expect(first('')).toBe('must not be empty');
    expect(first(42)).toBe('must be text');
  });
});
