// Tests of the files in docs/deploy/ with the real programs (nginx, Caddy, systemd-analyze).
// nginx runs the documented site file (on loopback ports, with a certificate made here) in front of nonolab; Caddy
// validates and adapts the Caddyfile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { startTestServer, type TestServer } from './support/testServer.ts';
import { servingFromEnv } from '../server/serving.ts';
import { repoRoot } from './support/server.ts';
import { tempDir } from './support/tempDirs.ts';
import { SERVER_NAME, startNginx, type RunningNginx } from './support/nginx.ts';

const PASSWORD = 'proxy-test-password';
process.env.NONOLAB_ADMIN_PASSWORD = PASSWORD;
const deployDir = join(repoRoot, 'docs', 'deploy');

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTPS request to nginx (self-signed certificate: not verified), the whole answer read. */
function viaProxy(port: number, method: string, path: string, opts: { headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, servername: SERVER_NAME, rejectUnauthorized: false, headers: { host: SERVER_NAME, ...opts.headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

describe('nginx with docs/deploy/nginx-nonolab.conf in front of nonolab', () => {
  let nonolab: TestServer;
  let nginx: RunningNginx;
  let https = 0;
  let http = 0;

  beforeAll(async () => {
    nonolab = await startTestServer({ serving: servingFromEnv({ NONOLAB_TRUST_PROXY: 'loopback', NONOLAB_PUBLIC_URL: `https://${SERVER_NAME}` }) });
    nginx = await startNginx(Number(new URL(nonolab.url).port));
    ({ https, http } = nginx);
  });
  afterAll(async () => {
    await nginx?.stop();
    await nonolab?.close();
  });

  it('passes nginx -t, answers over https with HSTS and Secure cookies, and sends plain HTTP to https', async () => {
    const health = await viaProxy(https, 'GET', '/api/health');
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toMatchObject({ ok: true });
    expect(health.headers['strict-transport-security']).toMatch(/^max-age=/);
    const start = await viaProxy(https, 'POST', '/api/sessions', { headers: { 'content-type': 'application/json' }, body: '{"mode":"general"}' });
    expect(start.status).toBe(201);
    expect(String(start.headers['set-cookie'])).toMatch(/;\s*Secure/i);
    const redirect = await new Promise<{ status: number; location?: string }>((resolve, reject) => {
      httpRequest({ host: '127.0.0.1', port: http, path: '/?mode=kiosk&label=P-001', headers: { host: 'study.example.org' } }, (res) => {
        res.resume();
        resolve({ status: res.statusCode!, location: res.headers.location });
      })
        .on('error', reject)
        .end();
    });
    expect(redirect).toEqual({ status: 301, location: 'https://study.example.org/?mode=kiosk&label=P-001' });
  });

  it('counts login failures by the address nginx saw: an X-Forwarded-For the client writes is overwritten', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await viaProxy(https, 'POST', '/api/admin/login', { headers: { 'content-type': 'application/json', 'x-forwarded-for': `192.0.2.${i + 1}` }, body: '{"password":"wrong"}' });
      expect(res.status).toBe(401);
    }
    const locked = await viaProxy(https, 'POST', '/api/admin/login', { headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.99' }, body: JSON.stringify({ password: PASSWORD }) });
    expect(locked.status).toBe(429);
    // A client nginx did not stand for (here: straight to nonolab, as another trusted-proxy client would) is counted apart.
    const other = await fetch(`${nonolab.url}/api/admin/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.4' }, body: JSON.stringify({ password: PASSWORD }) });
    expect(other.status).toBe(200);
  });

  it("streams the dashboard's live feed through nginx without buffering", async () => {
    const login = await fetch(`${nonolab.url}/api/admin/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.5' }, body: JSON.stringify({ password: PASSWORD }) });
    const cookie = login.headers.get('set-cookie')!.split(';')[0];
    const first = await new Promise<string>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: https, path: '/api/admin/live', servername: 'study.example.org', rejectUnauthorized: false, headers: { host: 'study.example.org', cookie } }, (res) => {
        expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
        res.setEncoding('utf8');
        let got = '';
        res.on('data', (c: string) => {
          got += c;
          // The snapshot arrives while the stream is still open: nginx did not hold it back.
          if (got.includes('\n\n')) {
            resolve(got);
            req.destroy();
          }
        });
      });
      req.on('error', reject);
      req.end();
    });
    expect(first).toMatch(/^event: snapshot\ndata: \{/);
  });
});

describe('Caddy with docs/deploy/Caddyfile', () => {
  it('validates, and proxies study.example.org to nonolab on 127.0.0.1:8080 with streams flushed at once', () => {
    const env = { ...process.env, HOME: tempDir('nonolab-caddy-'), XDG_DATA_HOME: tempDir('nonolab-caddy-data-'), XDG_CONFIG_HOME: tempDir('nonolab-caddy-config-') };
    const file = join(deployDir, 'Caddyfile');
    const out = execFileSync('caddy', ['validate', '--config', file, '--adapter', 'caddyfile'], { env, encoding: 'utf8', stdio: 'pipe' });
    expect(out).toContain('Valid configuration');
    const json = JSON.parse(execFileSync('caddy', ['adapt', '--config', file, '--adapter', 'caddyfile'], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
    const server = Object.values(json.apps.http.servers as Record<string, { listen: string[]; routes: { match: { host: string[] }[]; handle: { routes: { handle: Record<string, unknown>[] }[] }[] }[] }>)[0];
    expect(server.listen).toEqual([':443']);
    expect(server.routes[0].match[0].host).toEqual(['study.example.org']);
    const proxy = server.routes[0].handle[0].routes[0].handle.find((h) => h.handler === 'reverse_proxy')!;
    expect(proxy).toMatchObject({ flush_interval: -1, upstreams: [{ dial: '127.0.0.1:8080' }] });
    // The documented settings nonolab needs behind it are the ones in nonolab.env.
    const envFile = readFileSync(join(deployDir, 'nonolab.env'), 'utf8');
    const settings = Object.fromEntries(envFile.split('\n').filter((l) => /^[A-Z_]+=/.test(l)).map((l) => l.split(/=(.*)/s).slice(0, 2)));
    expect(settings).toMatchObject({ HOST: '127.0.0.1', PORT: '8080', NONOLAB_TRUST_PROXY: 'loopback', NONOLAB_PUBLIC_URL: 'https://study.example.org' });
    expect(servingFromEnv(settings)).toMatchObject({ kind: 'proxy', secure: true, trustProxy: ['loopback'] });
  });
});

describe('systemd with docs/deploy/nonolab.service', () => {
  it('passes systemd-analyze verify without a warning', () => {
    const dir = tempDir('nonolab-unit-');
    // Only the path of node is the test machine's.
    const unit = readFileSync(join(deployDir, 'nonolab.service'), 'utf8').replace('ExecStart=/usr/bin/node ', `ExecStart=${process.execPath} `);
    writeFileSync(join(dir, 'nonolab.service'), unit);
    const r = spawnSync('systemd-analyze', ['verify', '--man=no', join(dir, 'nonolab.service')], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(`${r.stdout}${r.stderr}`.trim()).toBe('');
    expect(unit).toMatch(/^EnvironmentFile=\/etc\/nonolab\/nonolab\.env$/m);
    expect(unit).toMatch(/^ReadWritePaths=\/var\/lib\/nonolab$/m);
  });
});
