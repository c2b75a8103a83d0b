import { defineConfig } from 'vite';

// Fixed file names (no content hashes): the server embeds exactly
// dist/index.html, dist/assets/app.js and dist/assets/app.css.
export default defineConfig({
  base: '/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2020',
    assetsInlineLimit: 1024 * 1024,
    cssCodeSplit: false,
    modulePreload: { polyfill: false },
    rollupOptions: {
      output: {
        entryFileNames: 'assets/app.js',
        chunkFileNames: 'assets/app-[name].js',
        assetFileNames: (info) =>
          (info.names ?? []).some((n) => n.endsWith('.css')) ? 'assets/app.css' : 'assets/[name][extname]',
        inlineDynamicImports: true,
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: process.env.SHOGI_URL ?? 'http://127.0.0.1:8080', ws: true },
    },
  },
});
