/**
 * Build-time only (imported by vite.config.ts, never by the application): Ant Design's styles as one
 * static stylesheet, so the browser never needs an inline <style> (the CSP allows only 'self' styles).
 *
 * antd normally writes its CSS at run time (CSS-in-JS). Here the components the portal uses are
 * rendered once on the server side with the portal's theme and their CSS is collected; at run time
 * antd runs in zero-runtime mode (see AntdProvider) and reads its token values from this stylesheet.
 */
import { createRequire } from 'node:module';
import { createElement, type ComponentType, type ReactNode } from 'react';
import type { Plugin } from 'vite';
import { ANTD_STYLED_COMPONENTS, ANTD_THEME } from './theme';

/** Import this id (`import 'virtual:antd-static.css'`) to get the stylesheet. */
export const ANTD_STATIC_CSS_ID = 'virtual:antd-static.css';
const RESOLVED_ID = '\0antd-static.css';

/** Renders the listed components with the portal's theme and returns their CSS. */
export function renderAntdStaticCss(): string {
  // Loaded on demand with Node's own require (CommonJS builds): Vite's config runner is closed by the
  // time plugins run, and the test configuration never needs antd.
  const require = createRequire(import.meta.url);
  const { extractStyle } = require('@ant-design/static-style-extract') as typeof import('@ant-design/static-style-extract');
  const { ConfigProvider } = require('antd') as { ConfigProvider: ComponentType<{ theme: typeof ANTD_THEME; children?: ReactNode }> };
  // static-style-extract warns about the deprecated components it renders for completeness.
  const warn = console.warn;
  const error = console.error;
  console.warn = () => undefined;
  console.error = (...args: unknown[]) => (String(args[0]).startsWith('Warning:') ? undefined : error(...args));
  try {
    return extractStyle({
      customTheme: (node) => createElement(ConfigProvider, { theme: ANTD_THEME }, node),
      includes: [...ANTD_STYLED_COMPONENTS],
    });
  } finally {
    console.warn = warn;
    console.error = error;
  }
}

/** Vite plugin serving `virtual:antd-static.css` (Vitest aliases the id to an empty file instead). */
export function antdStaticCss(): Plugin {
  let css: string | undefined;
  return {
    name: 'mfa-portal:antd-static-css',
    resolveId(id) {
      return id === ANTD_STATIC_CSS_ID ? RESOLVED_ID : undefined;
    },
    load(id) {
      if (id !== RESOLVED_ID) return undefined;
      css ??= renderAntdStaticCss();
      return css;
    },
  };
}
