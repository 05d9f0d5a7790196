import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { gzipAsync } from '@gfx/zopfli';
import { constants } from 'node:zlib';

export default defineConfig({
  root: 'client',
  plugins: [
    react(),
    // Prebuilt .br and .gz beside each asset, at the highest levels (compressed once per build, not per request); the
    // server picks one by Accept-Encoding (express-static-gzip in server/app.ts). The .gz is Zopfli's (about 4% smaller
    // than zlib's level 9): browsers send `br` only over https, so a lab network on plain HTTP gets gzip.
    compression({
      algorithms: [
        defineAlgorithm('brotliCompress', { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        defineAlgorithm(async (buf) => Buffer.from(await gzipAsync(Buffer.from(buf as Uint8Array), { numiterations: 15 })), {}),
      ],
      filename: (id, { algorithm }) => (typeof algorithm === 'function' ? `${id}.gz` : `${id}.br`),
      threshold: 1024,
    }),
  ],
  build: { outDir: '../dist/client', emptyOutDir: true, sourcemap: false },
  server: { proxy: { '/api': 'http://localhost:8080' } },
});
