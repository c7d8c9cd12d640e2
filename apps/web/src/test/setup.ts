import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Like index.html: the base path comes from <base href> (the server rewrites it in production).
const base = document.createElement('base');
base.setAttribute('href', '/');
document.head.append(base);

afterEach(() => {
  cleanup();
  window.sessionStorage.clear();
  window.localStorage.clear();
  // MSAL counts its instances per window and warns about duplicates; each test creates its own.
  delete (window as { msal?: unknown }).msal;
});
