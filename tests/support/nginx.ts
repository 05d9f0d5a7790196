// Test support: nginx running docs/deploy/nginx-nonolab.conf on loopback ports in front of a nonolab server.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { connect } from 'node:net';
import { join } from 'node:path';
import { repoRoot } from './server.ts';
import { tempDir } from './tempDirs.ts';

export const SERVER_NAME = 'study.example.org';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** A self-signed certificate (EC P-256) for the given names, made with openssl in a temporary directory. */
export function selfSignedCertificate(names: string[]): { cert: string; key: string } {
  const dir = tempDir('nonolab-tls-');
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  const san = names.map((n) => `DNS:${n}`).join(',');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', `/CN=${names[0]}`, '-addext', `subjectAltName=${san}`], { stdio: 'pipe' });
  return { cert, key };
}

export interface RunningNginx {
  /** Loopback ports standing for 443 and 80. */
  https: number;
  http: number;
  /** The site file as run (the documented one with ports, certificate and upstream put in). */
  site: string;
  output: () => string;
  stop(): Promise<void>;
}

/**
 * Run the documented site file, changed only where a test must: loopback ports instead of 80 and 443 (no IPv6
 * listeners), a self-signed certificate instead of certbot's, the given upstream port instead of 8080. `nginx -t`
 * first (throws with nginx's message if the file does not pass).
 */
export async function startNginx(upstreamPort: number): Promise<RunningNginx> {
  const dir = tempDir('nonolab-nginx-');
  const { cert, key } = selfSignedCertificate([SERVER_NAME]);
  const [https, http] = [await freePort(), await freePort()];
  const site = readFileSync(join(repoRoot, 'docs', 'deploy', 'nginx-nonolab.conf'), 'utf8')
    .replace(/^\s*listen \[::\].*$/gm, '')
    .replace('listen 80;', `listen 127.0.0.1:${http};`)
    .replace('listen 443 ssl http2;', `listen 127.0.0.1:${https} ssl http2;`)
    .replace(`/etc/letsencrypt/live/${SERVER_NAME}/fullchain.pem`, cert)
    .replace(`/etc/letsencrypt/live/${SERVER_NAME}/privkey.pem`, key)
    .replace('/var/www/letsencrypt', join(dir, 'acme'))
    .replace('server 127.0.0.1:8080;', `server 127.0.0.1:${upstreamPort};`);
  if (site.includes('/etc/letsencrypt') || !site.includes(`127.0.0.1:${upstreamPort}`)) throw new Error('the nginx site file no longer has the lines this test replaces');
  mkdirSync(join(dir, 'logs'));
  writeFileSync(join(dir, 'site.conf'), site);
  // The rest of a minimal nginx.conf, as Debian's /etc/nginx/nginx.conf gives it (mime types, the site included).
  writeFileSync(
    join(dir, 'nginx.conf'),
    `pid ${dir}/nginx.pid;\nerror_log ${dir}/logs/error.log warn;\nevents { worker_connections 64; }\nhttp {\n  include /etc/nginx/mime.types;\n  access_log off;\n` +
      ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${dir}/${t};\n`).join('') +
      `  include ${dir}/site.conf;\n}\n`,
  );
  execFileSync('nginx', ['-t', '-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: 'pipe' });
  const child = spawn('nginx', ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off; master_process off;'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  // Listening once a TCP connection to the https port is accepted.
  for (let i = 0; ; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(https, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (up) break;
    if (child.exitCode !== null || i > 400) throw new Error(`nginx did not start: ${out}${readFileSync(join(dir, 'logs', 'error.log'), 'utf8')}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return {
    https,
    http,
    site,
    output: () => out,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGQUIT');
      }),
  };
}
