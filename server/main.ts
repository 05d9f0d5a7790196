// `npm start`: serve the study (built client + API) on PORT (default 8080) with data under NONOLAB_DATA_DIR (default logs/),
// over plain HTTP, its own HTTPS (NONOLAB_TLS_CERT/KEY) or behind a reverse proxy (server/serving.ts); in PostgreSQL
// when NONOLAB_DATABASE_URL is set, with NONOLAB_WORKERS server processes (node:cluster) sharing it.
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { createSecureContext } from 'node:tls';
import { networkInterfaces } from 'node:os';
import { join, resolve } from 'node:path';
import { createNonolabServer } from './studyHost.ts';
import { ServingError, servingFromEnv, startupLines, type Serving } from './serving.ts';
import { ConfigError, defaultStudyConfigPath } from '../node/studyConfig.ts';
import { StoreError, isPostgresUrl } from '../store/stores.ts';

const root = resolve(import.meta.dirname, '..');
const portText = process.env.PORT ?? '8080';
const port = Number(portText);
const dataDir = resolve(process.env.NONOLAB_DATA_DIR ?? join(root, 'logs'));
const configPath = defaultStudyConfigPath();
const host = process.env.HOST ?? '127.0.0.1';
const databaseUrl = process.env.NONOLAB_DATABASE_URL || undefined;

/** PORT: checked before anything is opened or generated. */
function checkPort(): void {
  if (!/^\d+$/.test(portText.trim()) || port > 65535) throw new ServingError(`PORT: expected a port number from 0 to 65535, got '${portText}'`);
}

/** NONOLAB_WORKERS: how many server processes (default 1); above 1 only with PostgreSQL (SQLite has one writer). */
function workerCount(): number {
  const raw = process.env.NONOLAB_WORKERS ?? '1';
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || n < 1 || n > 256) throw new ServingError(`NONOLAB_WORKERS: expected a whole number from 1 to 256, got '${raw}'`);
  if (n > 1 && !isPostgresUrl(databaseUrl))
    throw new ServingError(
      `NONOLAB_WORKERS=${n} needs a shared database: the embedded SQLite store has one writer (one process owns the files). Set NONOLAB_DATABASE_URL=postgres://… or run one worker.`,
    );
  return n;
}

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

/**
 * The primary of N workers: forks them, starts a new one when one dies (its participants carry on through the others
 * meanwhile: every request finds its session in the shared database), and passes SIGINT/SIGTERM on.
 */
function runPrimary(workers: number): void {
  // The experimenter's password lives in the shared database: each worker sets it up there (server/admin/auth.ts), and
  // a generated one is stored and printed by the first worker only.
  let stopping = false;
  const fork = (index: number) =>
    cluster.fork({ NONOLAB_WORKER_INDEX: String(index) }).on('exit', (code, signal) => {
      if (stopping) return;
      // A worker that refused to start (a bad config or database URL: exit 2) would refuse again: stop them all.
      if (code === 2) {
        stopping = true;
        for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
        process.exitCode = 2;
        return;
      }
      console.error(`nonolab: worker ${index} ended (${signal ?? code}); starting another`);
      fork(index);
    });
  for (let i = 0; i < workers; i++) fork(i);
  const stop = () => {
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
    const done = () => Object.keys(cluster.workers ?? {}).length === 0 && process.exit(0);
    cluster.on('exit', done);
    done();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

try {
  checkPort();
  const workers = workerCount();
  const serving = servingFromEnv(process.env);
  const tls = tlsFiles(serving);
  if (workers > 1 && cluster.isPrimary) {
    runPrimary(workers);
  } else {
    // The port is bound before the store is opened and a password generated, so that a port in use is one message and
    // nothing is made in vain; requests that arrive before the store is open are told to retry.
    let ready: ((req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void) | undefined;
    const handler = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
      if (ready) return ready(req, res);
      res.writeHead(503, { 'retry-after': '1', 'content-type': 'text/plain' }).end('starting\n');
    };
    const listener = tls ? createTlsServer(tls, handler) : createServer(handler);
    // Idle keep-alive connections are kept longer than a load balancer's or proxy's own idle timeout (commonly 60 s):
    // a connection the server closes just as the other side reuses it fails that request ("socket hang up").
    listener.keepAliveTimeout = 65_000;
    // A long accept queue: when a study opens (a panel sends hundreds of participants within seconds) connection attempts
    // beyond Node's default of 511 waiting would be dropped by the kernel and retried only after 1 s, 3 s, 7 s.
    // (Capped by net.core.somaxconn.)
    const http = listener;
    await new Promise<void>((resolve, reject) => {
      http.once('error', (err: NodeJS.ErrnoException) => {
        if (err.code === 'EADDRINUSE') reject(new ServingError(`PORT ${port}: address ${host}:${port} is already in use (is another server running?); choose another PORT`));
        else if (err.code === 'EACCES') reject(new ServingError(`PORT ${port}: not allowed to listen on ${host}:${port} (ports below 1024 need privileges); choose another PORT`));
        else if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND') reject(new ServingError(`HOST: cannot listen on '${host}' (${err.code}): not an address of this machine`));
        else reject(err);
      });
      http.listen({ port, host, backlog: Number(process.env.NONOLAB_BACKLOG ?? 4096) }, () => resolve());
    });
    const server = await createNonolabServer({ dataDir, configPath, staticDir: join(root, 'dist', 'client'), serving, databaseUrl });
    ready = server.handler;
    {
      const address = http.address();
      const actual = typeof address === 'object' && address ? address.port : port;
      const shown = ['127.0.0.1', '::1', '0.0.0.0', '::', 'localhost'].includes(host) ? 'localhost' : host.includes(':') ? `[${host}]` : host;
      console.log(`nonolab: study '${server.study.config.id}' (config ${server.study.hash}) at ${tls ? 'https' : 'http'}://${shown}:${actual}/  data: ${dataDir}`);
      for (const line of startupLines(serving, { host, port: actual }, networkInterfaces())) console.log(line);
      const others = server.host.loaded().filter((h) => !h.record.first);
      if (others.length) console.log(`nonolab: ${others.length} more stud${others.length === 1 ? 'y' : 'ies'}: ${others.map((h) => `/s/${h.record.slug}/`).join(' ')}`);
      if (cluster.isWorker) console.log(`nonolab: worker ${process.env.NONOLAB_WORKER_INDEX} (pid ${process.pid}) serving; store: ${server.store.kind}`);
    }
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
    // One process sweeps inactive sessions (the first worker; with one process, it).
    if ((process.env.NONOLAB_WORKER_INDEX ?? '0') === '0') {
      const sweep = setInterval(() => void server.host.sweepInactive().catch((err: unknown) => console.error(`nonolab: sweep failed: ${(err as Error).message}`)), 60_000);
      sweep.unref();
    }
    const stop = () => {
      http.close();
      // The last checkpoint finishes before the process ends (at most a few seconds).
      void Promise.race([server.close(), new Promise((r) => setTimeout(r, 5_000).unref())]).then(() => process.exit(0));
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  }
} catch (err) {
  if (err instanceof ConfigError || err instanceof ServingError || err instanceof StoreError) {
    console.error(`nonolab: ${err.message}`);
    process.exit(2);
  }
  throw err;
}
