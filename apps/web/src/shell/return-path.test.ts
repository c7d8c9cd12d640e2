import { describe, expect, it } from 'vitest';
import { STORAGE_KEY_FIRST_AUTH, STORAGE_KEY_REDIRECT } from '@mfa-portal/shared';
import { consumeReturnPath, isWhitelisted, pathRelativeToBase, rememberReturnPath } from './return-path';

const whitelist = ['https://localhost', 'https://portal.example.com'];

function place(href: string) {
  const u = new URL(href);
  return { href: u.href, pathname: u.pathname, search: u.search, hash: u.hash };
}

describe('redirect whitelist and return path', () => {
  it('matches addresses that start with a whitelist entry', () => {
    expect(isWhitelisted('https://localhost:8443/some/path', whitelist)).toBe(true);
    expect(isWhitelisted('https://localhost/', whitelist)).toBe(true);
    expect(isWhitelisted('https://localhost', whitelist)).toBe(true);
    expect(isWhitelisted('https://portal.example.com/devices', whitelist)).toBe(true);
    expect(isWhitelisted('https://portal.example.com?x=1', whitelist)).toBe(true);
    expect(isWhitelisted('https://other.example.com/', whitelist)).toBe(false);
    expect(isWhitelisted('http://localhost:8443/', whitelist)).toBe(false);
    expect(isWhitelisted('https://localhost/', [''])).toBe(false);
  });

  it('refuses an address that merely contains an entry somewhere else', () => {
    expect(isWhitelisted('https://evil.example.net/?next=https://localhost:8443/', whitelist)).toBe(false);
    expect(isWhitelisted('https://evil.example.net/https://portal.example.com/', whitelist)).toBe(false);
    expect(isWhitelisted('http://x.example/#https://localhost', whitelist)).toBe(false);
  });

  it('refuses a host that only begins like an entry', () => {
    expect(isWhitelisted('https://localhost.evil.example/', whitelist)).toBe(false);
    expect(isWhitelisted('https://portal.example.com.evil.example/', whitelist)).toBe(false);
    expect(isWhitelisted('https://localhost:8443/x', ['https://localhost:84'])).toBe(false);
  });

  it('admits only the configured entries: https://127.0.0.1 is not localhost', () => {
    expect(isWhitelisted('https://127.0.0.1:8443/', whitelist)).toBe(false);
    expect(isWhitelisted('https://127.0.0.1/', whitelist)).toBe(false);
    expect(isWhitelisted('https://localhost:8443/mfa/x', ['https://localhost:8443/mfa/'])).toBe(true);
    expect(isWhitelisted('https://localhost:8443/other', ['https://localhost:8443/mfa/'])).toBe(false);
  });

  it('stores nothing for an address that merely contains an entry', () => {
    const stored = rememberReturnPath(place('https://evil.example.net/go?to=https://localhost'), whitelist, '/', sessionStorage);
    expect(stored).toBe(false);
    expect(sessionStorage.getItem(STORAGE_KEY_FIRST_AUTH)).toBeNull();
  });

  it('computes the path relative to the base path, with query and fragment', () => {
    expect(pathRelativeToBase(place('https://localhost:8443/some/path?x=1#top'), '/')).toBe('/some/path?x=1#top');
    expect(pathRelativeToBase(place('https://portal.example.com/mfa/devices?tab=2'), '/mfa/')).toBe('/devices?tab=2');
    expect(pathRelativeToBase(place('https://portal.example.com/mfa/'), '/mfa/')).toBe('/');
  });

  it('stores firstAuth=true and the path when the address is whitelisted', () => {
    const stored = rememberReturnPath(place('https://localhost:8443/some/path?x=1'), whitelist, '/', sessionStorage);
    expect(stored).toBe(true);
    expect(sessionStorage.getItem(STORAGE_KEY_FIRST_AUTH)).toBe('true');
    expect(sessionStorage.getItem(STORAGE_KEY_REDIRECT)).toBe('/some/path?x=1');
  });

  it('stores nothing when the address is not whitelisted', () => {
    const stored = rememberReturnPath(place('https://elsewhere.example.net/some/path'), whitelist, '/', sessionStorage);
    expect(stored).toBe(false);
    expect(sessionStorage.getItem(STORAGE_KEY_FIRST_AUTH)).toBeNull();
    expect(sessionStorage.getItem(STORAGE_KEY_REDIRECT)).toBeNull();
  });

  it('returns the stored path once after sign-in and clears both keys', () => {
    rememberReturnPath(place('https://portal.example.com/mfa/some/path#x'), whitelist, '/mfa/', sessionStorage);
    expect(consumeReturnPath(sessionStorage)).toBe('/some/path#x');
    expect(sessionStorage.getItem(STORAGE_KEY_FIRST_AUTH)).toBeNull();
    expect(sessionStorage.getItem(STORAGE_KEY_REDIRECT)).toBeNull();
    expect(consumeReturnPath(sessionStorage)).toBeNull();
  });

  it('ignores a redirect without firstAuth, and refuses paths that leave the app', () => {
    sessionStorage.setItem(STORAGE_KEY_REDIRECT, '/some/path');
    expect(consumeReturnPath(sessionStorage)).toBeNull();
    expect(sessionStorage.getItem(STORAGE_KEY_REDIRECT)).toBe('/some/path');

    sessionStorage.setItem(STORAGE_KEY_FIRST_AUTH, 'true');
    sessionStorage.setItem(STORAGE_KEY_REDIRECT, '//evil.example.com/');
    expect(consumeReturnPath(sessionStorage)).toBeNull();
    expect(sessionStorage.getItem(STORAGE_KEY_FIRST_AUTH)).toBeNull();
  });
});
