// Tests of the serving modes (environment, headers, cookies, start-up URLs) and of static caching and compression.
// Headers and cookies are read over real HTTP from the in-process app.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { NetworkInterfaceInfo } from 'node:os';
import { PLAIN_HTTP, ServingError, helmetOptions, parsePublicUrl, parseTrustProxy, servedOrigins, servingFromEnv, startupLines, type Serving } from './serving.ts';
import { cacheControlFor, recordedSecurityHeaders } from './app.ts';
import { event, startTestServer, type TestServer } from '../tests/support/testServer.ts';
import { tempDir } from '../tests/support/tempDirs.ts';

/** A PEM-looking pair of files (servingFromEnv only checks that they exist; main.ts reads them). */
function tlsFiles(): { cert: string; key: string } {
  const dir = tempDir('nonolab-tls-');
  writeFileSync(join(dir, 'cert.pem'), 'x');
  writeFileSync(join(dir, 'key.pem'), 'x');
  return { cert: join(dir, 'cert.pem'), key: join(dir, 'key.pem') };
}

/** The headers helmet sets under a mode, lower-cased names. */
function headersOf(serving: Serving): Map<string, string> {
  const recorded = recordedSecurityHeaders(helmetOptions(serving))!;
  return new Map(recorded.set.map(([n, v]) => [n.toLowerCase(), String(v)]));
}

describe('servingFromEnv', () => {
  it('is plain HTTP with nothing set', () => {
    expect(servingFromEnv({})).toEqual(PLAIN_HTTP);
    expect(servingFromEnv({ NONOLAB_TRUST_PROXY: '', NONOLAB_PUBLIC_URL: ' ' })).toEqual(PLAIN_HTTP);
  });

  it('serves HTTPS itself with a certificate and key, and refuses half a pair or a missing file', () => {
    const { cert, key } = tlsFiles();
    const s = servingFromEnv({ NONOLAB_TLS_CERT: cert, NONOLAB_TLS_KEY: key });
    expect(s).toMatchObject({ kind: 'https', tls: { cert, key }, secure: true, trustProxy: false });
    expect(() => servingFromEnv({ NONOLAB_TLS_CERT: cert })).toThrow(/NONOLAB_TLS_CERT and NONOLAB_TLS_KEY go together/);
    expect(() => servingFromEnv({ NONOLAB_TLS_KEY: key })).toThrow(ServingError);
    expect(() => servingFromEnv({ NONOLAB_TLS_CERT: cert, NONOLAB_TLS_KEY: '/nonexistent/key.pem' })).toThrow(/NONOLAB_TLS_KEY: no file at '\/nonexistent\/key.pem'/);
    expect(() => servingFromEnv({ NONOLAB_TLS_CERT: cert, NONOLAB_TLS_KEY: key, NONOLAB_PUBLIC_URL: 'http://lab.example.org' })).toThrow(/must be https|make it https/);
    expect(servingFromEnv({ NONOLAB_TLS_CERT: cert, NONOLAB_TLS_KEY: key, NONOLAB_PUBLIC_URL: 'https://lab.example.org:8443' }).publicUrl?.origin).toBe('https://lab.example.org:8443');
  });

  it('is behind a proxy with NONOLAB_TRUST_PROXY; secure exactly when the public URL is https', () => {
    expect(servingFromEnv({ NONOLAB_TRUST_PROXY: '1', NONOLAB_PUBLIC_URL: 'https://study.example.org/' })).toMatchObject({ kind: 'proxy', trustProxy: 1, secure: true });
    expect(servingFromEnv({ NONOLAB_TRUST_PROXY: 'loopback', NONOLAB_PUBLIC_URL: 'http://study.lab.local:8080' })).toMatchObject({ kind: 'proxy', trustProxy: ['loopback'], secure: false });
    expect(servingFromEnv({ NONOLAB_TRUST_PROXY: 'loopback' })).toMatchObject({ kind: 'proxy', publicUrl: null, secure: false });
    // An https address without a trusted proxy is still a TLS-terminating proxy in front: HSTS and Secure cookies.
    expect(servingFromEnv({ NONOLAB_PUBLIC_URL: 'https://study.example.org' })).toMatchObject({ kind: 'proxy', trustProxy: false, secure: true });
    // A plain-HTTP name on the LAN is plain HTTP.
    expect(servingFromEnv({ NONOLAB_PUBLIC_URL: 'http://lab-pc.local:8080' })).toMatchObject({ kind: 'http', secure: false });
  });

  it('reads NONOLAB_TRUST_PROXY as hops, addresses or subnets, and names a bad entry', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    for (const off of ['0', 'false', 'no', 'off', '']) expect(parseTrustProxy(off)).toBe(false);
    expect(parseTrustProxy('true')).toBe(1);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('loopback, 10.0.0.0/8 ,::1,fd00::/8,192.168.1.7')).toEqual(['loopback', '10.0.0.0/8', '::1', 'fd00::/8', '192.168.1.7']);
    expect(() => parseTrustProxy('loopback,proxy.example.org')).toThrow(/'proxy.example.org' is not/);
    expect(() => parseTrustProxy('10.0.0.0/33')).toThrow(/NONOLAB_TRUST_PROXY: '10.0.0.0\/33'/);
    expect(() => parseTrustProxy('10.0.0.0/8/1')).toThrow(ServingError);
  });

  it('takes an origin only as NONOLAB_PUBLIC_URL', () => {
    expect(parsePublicUrl('https://study.example.org')!.href).toBe('https://study.example.org/');
    expect(parsePublicUrl('https://Study.Example.org:443/')!.origin).toBe('https://study.example.org');
    expect(() => parsePublicUrl('study.example.org')).toThrow(/not a URL/);
    expect(() => parsePublicUrl('ftp://study.example.org')).toThrow(/http:\/\/ or https:\/\//);
    expect(() => parsePublicUrl('https://example.org/nonolab/')).toThrow(/origin only/);
    expect(() => parsePublicUrl('https://example.org/?x=1')).toThrow(/origin only/);
  });
});

describe('security headers per mode', () => {
  it('plain HTTP: a CSP without upgrade-insecure-requests, no HSTS, no COOP; the rest of helmet stays', () => {
    const h = headersOf(PLAIN_HTTP);
    expect(h.get('content-security-policy')).toContain("default-src 'self'");
    expect(h.get('content-security-policy')).not.toContain('upgrade-insecure-requests');
    expect(h.has('strict-transport-security')).toBe(false);
    expect(h.has('cross-origin-opener-policy')).toBe(false);
    expect(h.get('x-content-type-options')).toBe('nosniff');
    expect(h.get('x-frame-options')).toBe('SAMEORIGIN');
    // A proxy whose public URL is http gets the same.
    expect(headersOf(servingFromEnv({ NONOLAB_TRUST_PROXY: '1', NONOLAB_PUBLIC_URL: 'http://lab.example.org' }))).toEqual(h);
  });

  it('HTTPS (own or through an https proxy): upgrade-insecure-requests and HSTS', () => {
    const { cert, key } = tlsFiles();
    for (const s of [servingFromEnv({ NONOLAB_TLS_CERT: cert, NONOLAB_TLS_KEY: key }), servingFromEnv({ NONOLAB_TRUST_PROXY: '1', NONOLAB_PUBLIC_URL: 'https://study.example.org' })]) {
      const h = headersOf(s);
      expect(h.get('content-security-policy')).toContain('upgrade-insecure-requests');
      expect(h.get('strict-transport-security')).toMatch(/^max-age=\d+/);
      expect(h.get('cross-origin-opener-policy')).toBe('same-origin');
    }
  });
});

describe('start-up URLs', () => {
  const nic = (address: string, family: 'IPv4' | 'IPv6', internal = false) => ({ address, family, internal }) as NetworkInterfaceInfo;
  const interfaces = {
    lo: [nic('127.0.0.1', 'IPv4', true), nic('::1', 'IPv6', true)],
    eth0: [nic('192.168.1.20', 'IPv4'), nic('fe80::1', 'IPv6'), nic('2001:db8::20', 'IPv6')],
    wlan0: [nic('10.0.0.5', 'IPv4')],
  };

  it('lists the LAN addresses for HOST=0.0.0.0 (and global IPv6 ones for ::), then localhost', () => {
    expect(servedOrigins(PLAIN_HTTP, { host: '0.0.0.0', port: 8080 }, interfaces)).toEqual(['http://192.168.1.20:8080', 'http://10.0.0.5:8080', 'http://localhost:8080']);
    expect(servedOrigins(PLAIN_HTTP, { host: '::', port: 8080 }, interfaces)).toEqual(['http://192.168.1.20:8080', 'http://[2001:db8::20]:8080', 'http://10.0.0.5:8080', 'http://localhost:8080']);
    expect(servedOrigins(PLAIN_HTTP, { host: '127.0.0.1', port: 8080 }, interfaces)).toEqual(['http://localhost:8080']);
    expect(servedOrigins(PLAIN_HTTP, { host: '192.168.1.20', port: 80 }, interfaces)).toEqual(['http://192.168.1.20:80']);
    const { cert, key } = tlsFiles();
    expect(servedOrigins(servingFromEnv({ NONOLAB_TLS_CERT: cert, NONOLAB_TLS_KEY: key }), { host: '0.0.0.0', port: 8443 }, interfaces)[0]).toBe('https://192.168.1.20:8443');
  });

  it('names the public URL behind a proxy, and what participants, a kiosk and the experimenter open', () => {
    const s = servingFromEnv({ NONOLAB_TRUST_PROXY: 'loopback', NONOLAB_PUBLIC_URL: 'https://study.example.org' });
    expect(servedOrigins(s, { host: '127.0.0.1', port: 8080 }, interfaces)).toEqual(['https://study.example.org']);
    const lines = startupLines(s, { host: '127.0.0.1', port: 8080 }, interfaces).join('\n');
    expect(lines).toContain('participants open https://study.example.org/');
    expect(lines).toContain('https://study.example.org/?mode=kiosk&label=P-001');
    expect(lines).toContain('the experimenter opens https://study.example.org/dashboard');
    expect(lines).toContain('behind a reverse proxy');
    const lan = startupLines(PLAIN_HTTP, { host: '0.0.0.0', port: 8080 }, interfaces).join('\n');
    expect(lan).toContain('the experimenter opens http://192.168.1.20:8080/dashboard');
    expect(lan).toContain('participants open http://10.0.0.5:8080/');
    expect(startupLines(PLAIN_HTTP, { host: '127.0.0.1', port: 8080 }, interfaces).join('\n')).toContain('set HOST=0.0.0.0');
  });
});

describe('cookies and headers over HTTP, per mode', () => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
  });
  const start = async (serving: Serving) => {
    const s = await startTestServer({ serving });
    servers.push(s);
    return s;
  };

  it('plain HTTP: the participant cookie is not Secure; no HSTS on the API nor on the events lane', async () => {
    const s = await start(PLAIN_HTTP);
    const res = await fetch(`${s.url}/api/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"mode":"general"}' });
    expect(res.status).toBe(201);
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^nonolab_token=/);
    expect(cookie).not.toMatch(/;\s*Secure/i);
    expect(res.headers.get('strict-transport-security')).toBeNull();
    expect(res.headers.get('content-security-policy')).not.toContain('upgrade-insecure-requests');
    const { session_id } = (await res.json()) as { session_id: string };
    const lane = await fetch(`${s.url}/api/session/events`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: cookie.split(';')[0] }, body: JSON.stringify({ events: [event(session_id, 1)] }) });
    expect(lane.status).toBe(200);
    expect(lane.headers.get('strict-transport-security')).toBeNull();
    expect(lane.headers.get('content-security-policy')).toBe(res.headers.get('content-security-policy'));
    const login = await fetch(`${s.url}/api/admin/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password: 'wrong' }) });
    expect(login.status).toBe(401);
  });

  it('behind an https proxy: Secure cookies (participant and experimenter), HSTS everywhere', async () => {
    process.env.NONOLAB_ADMIN_PASSWORD = 'serving-test-password';
    const s = await start(servingFromEnv({ NONOLAB_TRUST_PROXY: 'loopback', NONOLAB_PUBLIC_URL: 'https://study.example.org' }));
    const res = await fetch(`${s.url}/api/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"mode":"general"}' });
    expect(res.headers.get('set-cookie')).toMatch(/;\s*Secure/i);
    expect(res.headers.get('strict-transport-security')).toMatch(/^max-age=/);
    expect(res.headers.get('content-security-policy')).toContain('upgrade-insecure-requests');
    const { session_id } = (await res.json()) as { session_id: string };
    const lane = await fetch(`${s.url}/api/session/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: res.headers.get('set-cookie')!.split(';')[0] },
      body: JSON.stringify({ events: [event(session_id, 1)] }),
    });
    expect(lane.status).toBe(200);
    expect(lane.headers.get('strict-transport-security')).toMatch(/^max-age=/);
    const login = await fetch(`${s.url}/api/admin/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password: 'serving-test-password' }) });
    expect(login.status).toBe(200);
    expect(login.headers.get('set-cookie')).toMatch(/^nonolab_admin=.*;\s*Secure/i);
  });
});

describe('static files: caching and prebuilt compression', () => {
  let server: TestServer;
  const js = 'export const answer = 42;\n'.repeat(400);
  const css = 'body { color: black; }\n'.repeat(100);
  beforeAll(async () => {
    const dir = tempDir('nonolab-static-');
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><script type="module" src="/assets/index-AbCd1234.js"></script>');
    writeFileSync(join(dir, 'assets', 'index-AbCd1234.js'), js);
    writeFileSync(join(dir, 'assets', 'index-AbCd1234.js.br'), brotliCompressSync(js));
    writeFileSync(join(dir, 'assets', 'index-AbCd1234.js.gz'), gzipSync(js));
    writeFileSync(join(dir, 'assets', 'index-Xy_z9876.css'), css);
    server = await startTestServer({ staticDir: dir });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('caches hashed assets for a year, immutable, and revalidates index.html (at / and as the SPA fallback)', async () => {
    for (const path of ['/assets/index-AbCd1234.js', '/assets/index-Xy_z9876.css']) {
      const res = await fetch(server.url + path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe('public, max-age=31536000, immutable');
    }
    for (const path of ['/', '/index.html', '/dashboard', '/some/client/route?mode=kiosk&label=P-001']) {
      const res = await fetch(server.url + path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control'), path).toBe('no-cache');
    }
    expect((await fetch(`${server.url}/api/health`)).headers.get('cache-control') ?? '').not.toContain('immutable');
    // An asset that is not there (an old build's) is a 404, not index.html.
    expect((await fetch(`${server.url}/assets/index-Old12345.js`)).status).toBe(404);
    expect(cacheControlFor('/srv/dist/client/assets/Dashboard-Db1ATTCf.js.br')).toBe('public, max-age=31536000, immutable');
    expect(cacheControlFor('/srv/dist/client/index.html')).toBe('no-cache');
    expect(cacheControlFor('/srv/dist/client/favicon.ico')).toBe('no-cache');
  });

  it('sends the brotli file to a browser that takes br, gzip to one that takes gzip only, the plain file otherwise', async () => {
    const { request } = await import('node:http');
    // fetch decodes bodies by itself; read the raw bytes to see what went over the wire.
    const raw = (encoding: string | null) =>
      new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
        const req = request(`${server.url}/assets/index-AbCd1234.js`, { headers: encoding ? { 'accept-encoding': encoding } : {} }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        });
        req.on('error', reject);
        req.end();
      });
    const br = await raw('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^text\/javascript/);
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.body).toString()).toBe(js);
    expect(br.body.length).toBeLessThan(js.length / 10);
    const gz = await raw('gzip, deflate');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(js);
    const plain = await raw(null);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(js);
  });
});
