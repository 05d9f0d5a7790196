// `npm start`: serve the study (built client + API) on PORT (default 8080) with data under NONOLAB_DATA_DIR (default logs/).
import { createServer } from 'node:http';
import { join, resolve } from 'node:path';
import { createNonolabServer } from './app.ts';
import { ConfigError } from './studyConfig.ts';

const root = resolve(import.meta.dirname, '..');
const port = Number(process.env.PORT ?? 8080);
const dataDir = resolve(process.env.NONOLAB_DATA_DIR ?? join(root, 'logs'));
const configPath = resolve(process.env.NONOLAB_CONFIG ?? join(root, 'study-config', 'study.json'));
const host = process.env.HOST ?? '127.0.0.1';

try {
  const server = createNonolabServer({ dataDir, configPath, staticDir: join(root, 'dist', 'client') });
  // A long accept queue: when a study opens (a panel sends hundreds of participants within seconds) connection attempts
  // beyond Node's default of 511 waiting would be dropped by the kernel and retried only after 1 s, 3 s, 7 s.
  // (Capped by net.core.somaxconn.)
  const http = createServer(server.handler).listen({ port, host, backlog: Number(process.env.NONOLAB_BACKLOG ?? 4096) }, () => {
    const address = http.address();
    const actual = typeof address === 'object' && address ? address.port : port;
    console.log(`nonolab: study '${server.study.config.id}' (config ${server.study.hash}) at http://localhost:${actual}/  data: ${dataDir}`);
  });
  const sweep = setInterval(() => server.service.sweepInactive(), 60_000);
  sweep.unref();
  const stop = () => {
    http.close();
    server.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(`nonolab: ${err.message}`);
    process.exit(2);
  }
  throw err;
}
