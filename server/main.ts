// `npm start`: serve the study (built client + API) on PORT (default 8080) with data under NONOLAB_DATA_DIR (default logs/),
// over plain HTTP, its own HTTPS (NONOLAB_TLS_CERT/KEY) or behind a reverse proxy (server/serving.ts).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { createSecureContext } from 'node:tls';
import { networkInterfaces } from 'node:os';
import { join, resolve } from 'node:path';
import { createNonolabServer } from './app.ts';
import { ServingError, servingFromEnv, startupLines, type Serving } from './serving.ts';
import { ConfigError } from '../node/studyConfig.ts';

const root = resolve(import.meta.dirname, '..');
const port = Number(process.env.PORT ?? 8080);
const dataDir = resolve(process.env.NONOLAB_DATA_DIR ?? join(root, 'logs'));
const configPath = resolve(process.env.NONOLAB_CONFIG ?? join(root, 'study-config', 'study.json'));
const host = process.env.HOST ?? '127.0.0.1';

/**
 * The certificate and key, read and tried (files that are not a matching PEM pair fail here, before the data
 * directory is opened or a password generated).
 */
function tlsFiles(serving: Serving): { cert: Buffer; key: Buffer } | null {
  if (!serving.tls) return null;
  const read = (name: string, path: string) => {
    try {
      return readFileSync(path);
    } catch (err) {
      throw new ServingError(`${name}: cannot read '${path}': ${(err as Error).message}`);
    }
  };
  const pair = { cert: read('NONOLAB_TLS_CERT', serving.tls.cert), key: read('NONOLAB_TLS_KEY', serving.tls.key) };
  try {
    createSecureContext(pair);
  } catch (err) {
    throw new ServingError(`NONOLAB_TLS_CERT/NONOLAB_TLS_KEY: not a usable PEM certificate and key: ${(err as Error).message}`);
  }
  return pair;
}

try {
  const serving = servingFromEnv(process.env);
  const tls = tlsFiles(serving);
  const server = createNonolabServer({ dataDir, configPath, staticDir: join(root, 'dist', 'client'), serving });
  const listener = tls ? createTlsServer(tls, server.handler) : createServer(server.handler);
  // A long accept queue: when a study opens (a panel sends hundreds of participants within seconds) connection attempts
  // beyond Node's default of 511 waiting would be dropped by the kernel and retried only after 1 s, 3 s, 7 s.
  // (Capped by net.core.somaxconn.)
  const http = listener.listen({ port, host, backlog: Number(process.env.NONOLAB_BACKLOG ?? 4096) }, () => {
    const address = http.address();
    const actual = typeof address === 'object' && address ? address.port : port;
    const shown = ['127.0.0.1', '::1', '0.0.0.0', '::', 'localhost'].includes(host) ? 'localhost' : host.includes(':') ? `[${host}]` : host;
    console.log(`nonolab: study '${server.study.config.id}' (config ${server.study.hash}) at ${tls ? 'https' : 'http'}://${shown}:${actual}/  data: ${dataDir}`);
    for (const line of startupLines(serving, { host, port: actual }, networkInterfaces())) console.log(line);
  });
  // SIGHUP: read the certificate and key again (after a renewal) without dropping a connection.
  if (tls && 'setSecureContext' in http) {
    process.on('SIGHUP', () => {
      try {
        http.setSecureContext({ ...tlsFiles(serving)! });
        console.log('nonolab: certificate and key read again');
      } catch (err) {
        console.error(`nonolab: kept the old certificate: ${(err as Error).message}`);
      }
    });
  }
  const sweep = setInterval(() => server.service.sweepInactive(), 60_000);
  sweep.unref();
  const stop = () => {
    http.close();
    // The last checkpoint finishes before the process ends (at most a few seconds).
    void Promise.race([server.close(), new Promise((r) => setTimeout(r, 5_000).unref())]).then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (err) {
  if (err instanceof ConfigError || err instanceof ServingError) {
    console.error(`nonolab: ${err.message}`);
    process.exit(2);
  }
  throw err;
}
