import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { STATIC_CSS_PREFIX, STATIC_JS_PREFIX } from '@mfa-portal/shared';
import { precompress } from './src/lib/build/precompress';

const web = import.meta.dirname;

/**
 * Production build of the portal's authenticator app, served at `<base>authenticator/`. Its own build
 * (not a page of the portal's): a phone downloads React and the app only, never the portal's router,
 * Ant Design or vendor chunks. Run after the portal's build, which empties dist/. `base: './'` keeps
 * every URL relative to the page's `<base href>`, which the server sets to the app's folder.
 */
export default defineConfig({
  root: path.join(web, 'authenticator'),
  base: './',
  // The manifest, the service worker and the icons, copied as they are into the app's folder.
  publicDir: path.join(web, 'public/authenticator'),
  plugins: [react(), precompress()],
  build: {
    outDir: path.join(web, 'dist/authenticator'),
    emptyOutDir: true,
    assetsDir: 'static',
    // Inline (data:) assets would need a laxer CSP: keep every asset a file.
    assetsInlineLimit: 0,
    rolldownOptions: {
      input: { index: path.join(web, 'authenticator/index.html') },
      output: {
        entryFileNames: `${STATIC_JS_PREFIX}/[name]-[hash].js`,
        chunkFileNames: `${STATIC_JS_PREFIX}/[name]-[hash].js`,
        assetFileNames: (asset) =>
          asset.names.some((n) => n.endsWith('.css'))
            ? `${STATIC_CSS_PREFIX}/[name]-[hash][extname]`
            : 'static/media/[name]-[hash][extname]',
      },
    },
  },
});
