import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { STATIC_CSS_PREFIX, STATIC_JS_PREFIX } from '@mfa-portal/shared';
import { antdStaticCss } from './src/lib/antd/static-css';
import { precompress } from './src/lib/build/precompress';

const root = import.meta.dirname;

/**
 * Production build of the SPA. `base: './'` makes every asset URL relative, so the `<base href>` the
 * server writes into index.html (the configured base path) decides where the assets are fetched from.
 * Two pages: the application and the MSAL redirect bridge used by silent (iframe) token renewal.
 */
export default defineConfig({
  root,
  base: './',
  // antd's styles as a static stylesheet of the lazily loaded main application (no inline <style>: CSP).
  // Brotli and gzip copies of every asset, made once here and sent as they are by the server.
  plugins: [react(), antdStaticCss(), precompress()],
  build: {
    outDir: path.join(root, 'dist'),
    emptyOutDir: true,
    assetsDir: 'static',
    // Inline (data:) assets would need a laxer CSP for fonts/images; keep every asset a file.
    assetsInlineLimit: 0,
    rolldownOptions: {
      input: {
        index: path.join(root, 'index.html'),
        'auth-bridge': path.join(root, 'auth-bridge.html'),
      },
      output: {
        entryFileNames: `${STATIC_JS_PREFIX}/[name]-[hash].js`,
        chunkFileNames: `${STATIC_JS_PREFIX}/[name]-[hash].js`,
        assetFileNames: (asset) =>
          asset.names.some((n) => n.endsWith('.css'))
            ? `${STATIC_CSS_PREFIX}/[name]-[hash][extname]`
            : 'static/media/[name]-[hash][extname]',
        // Libraries that change rarely get their own long-cached chunks. MSAL stays with the shell
        // entry so the redirect-bridge page keeps loading only the small part of MSAL it needs.
        codeSplitting: {
          groups: [
            { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
            {
              name: 'i18n',
              test: /[\\/]node_modules[\\/](i18next|i18next-http-backend|i18next-browser-languagedetector|react-i18next)[\\/]/,
            },
            { name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]/ },
            // Only the lazily loaded main application imports these, so they never reach the shell's bundle.
            {
              name: 'antd',
              test: /[\\/]node_modules[\\/](antd|@ant-design|@rc-component|rc-[\w-]+|@babel[\\/]runtime|dayjs|scroll-into-view-if-needed|compute-scroll-into-view|throttle-debounce|clsx|classnames|stylis|@emotion)[\\/]/,
            },
            { name: 'query', test: /[\\/]node_modules[\\/]@tanstack[\\/]/ },
          ],
        },
      },
    },
  },
});
