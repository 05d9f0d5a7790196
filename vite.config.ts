import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { constants } from 'node:zlib';

export default defineConfig({
  root: 'client',
  plugins: [
    react(),
    // Prebuilt .br and .gz beside each asset (highest levels: compressed once per build, not per request); the
    // server picks one by Accept-Encoding (express-static-gzip in server/app.ts).
    compression({
      algorithms: [defineAlgorithm('brotliCompress', { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }), defineAlgorithm('gzip', { level: 9 })],
      threshold: 1024,
    }),
  ],
  build: { outDir: '../dist/client', emptyOutDir: true, sourcemap: false },
  server: { proxy: { '/api': 'http://localhost:8080' } },
});
