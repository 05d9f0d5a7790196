// Tests of the real server process (`server/main.ts`) at start-up: printed addresses, HTTPS, refused settings.
// A serving setting that cannot work stops it with exit code 2 and a message naming the variable.
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { spawnSync } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { repoRoot, startServer, type RunningServer } from './support/server.ts';
import { tempDir } from './support/tempDirs.ts';

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

function runMain(env: Record<string, string>): { status: number | null; output: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(repoRoot, 'server', 'main.ts')], {
    cwd: repoRoot,
    env: { ...process.env, PORT: '0', NONOLAB_DATA_DIR: tempDir('nonolab-data-'), ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

describe('start-up', () => {
  it('on every interface (HOST=0.0.0.0) prints the LAN addresses for participants, a kiosk and the experimenter', async () => {
    running = await startServer({ env: { HOST: '0.0.0.0' } });
    const port = new URL(running.url).port;
    await expect.poll(() => running!.output()).toContain('the experimenter opens');
    const out = running.output();
    expect(out).toContain('serving plain HTTP');
    expect(out).toContain(`participants open http://localhost:${port}/`);
    expect(out).toContain(`http://localhost:${port}/?mode=kiosk&label=P-001`);
    expect(out).toContain(`the experimenter opens http://localhost:${port}/dashboard`);
    // Every address printed answers.
    for (const m of out.matchAll(/participants open (http:\/\/[^/\s]+)\//g)) expect((await fetch(`${m[1]}/api/health`)).status, m[1]).toBe(200);
  });

  it('behind a proxy prints the public URL', async () => {
    running = await startServer({ env: { NONOLAB_TRUST_PROXY: 'loopback', NONOLAB_PUBLIC_URL: 'https://study.example.org' } });
    await expect.poll(() => running!.output()).toContain('the experimenter opens https://study.example.org/dashboard');
    expect(running.output()).toContain('participants open https://study.example.org/');
  });

  it('serves HTTPS with NONOLAB_TLS_CERT and NONOLAB_TLS_KEY, and reads them again on SIGHUP (a renewed certificate)', async () => {
    const dir = tempDir('nonolab-tls-');
    const makeCert = (name: string) =>
      execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '2', '-subj', `/CN=${name}`], { stdio: 'pipe' });
    const health = () =>
      new Promise<{ status: number; hsts?: string; cn?: string }>((resolve, reject) => {
        request(`${running!.url}/api/health`, { rejectUnauthorized: false, agent: false }, (res) => {
          const cn = (res.socket as import('node:tls').TLSSocket).getPeerCertificate().subject?.CN;
          res.resume();
          resolve({ status: res.statusCode!, hsts: res.headers['strict-transport-security'], cn: Array.isArray(cn) ? cn[0] : cn });
        })
          .on('error', reject)
          .end();
      });
    makeCert('first.lab.test');
    running = await startServer({ env: { NONOLAB_TLS_CERT: join(dir, 'cert.pem'), NONOLAB_TLS_KEY: join(dir, 'key.pem') } });
    expect(running.url).toMatch(/^https:\/\/localhost:\d+$/);
    const first = await health();
    expect(first.status).toBe(200);
    expect(first.hsts).toMatch(/^max-age=/);
    expect(first.cn).toBe('first.lab.test');
    makeCert('renewed.lab.test');
    running.process.kill('SIGHUP');
    await expect.poll(() => running!.output()).toContain('certificate and key read again');
    expect((await health()).cn).toBe('renewed.lab.test');
  });

  it('stops with exit code 2 and names the variable when a serving setting cannot work', async () => {
    const dir = tempDir('nonolab-tls-');
    writeFileSync(join(dir, 'cert.pem'), 'not a certificate');
    writeFileSync(join(dir, 'key.pem'), 'not a key');
    const cases: [Record<string, string>, RegExp][] = [
      [{ NONOLAB_TLS_CERT: join(dir, 'cert.pem') }, /NONOLAB_TLS_CERT and NONOLAB_TLS_KEY go together/],
      [{ NONOLAB_TLS_CERT: join(dir, 'cert.pem'), NONOLAB_TLS_KEY: join(dir, 'key.pem') }, /NONOLAB_TLS_CERT\/NONOLAB_TLS_KEY: not a usable PEM/],
      [{ NONOLAB_TRUST_PROXY: 'proxy.example.org' }, /NONOLAB_TRUST_PROXY: 'proxy.example.org' is not/],
      [{ NONOLAB_PUBLIC_URL: 'https://example.org/study/' }, /NONOLAB_PUBLIC_URL: .* origin only/],
      [{ PORT: 'abc' }, /^nonolab: PORT: expected a port number from 0 to 65535, got 'abc'\n$/],
      [{ PORT: '70000' }, /^nonolab: PORT: expected a port number from 0 to 65535, got '70000'\n$/],
    ];
    // A port in use (held by this test process).
    const busy = createNetServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const busyPort = String((busy.address() as AddressInfo).port);
    cases.push([{ PORT: busyPort }, new RegExp(`^nonolab: PORT ${busyPort}: address 127\\.0\\.0\\.1:${busyPort} is already in use .*choose another PORT\\n$`)]);
    onTestFinished(() => void busy.close());
    for (const [env, message] of cases) {
      const data = tempDir('nonolab-data-');
      const r = runMain({ NONOLAB_DATA_DIR: data, NONOLAB_ADMIN_PASSWORD: '', ...env });
      expect(r.status, JSON.stringify(env)).toBe(2);
      expect(r.output).toMatch(message);
      expect(r.output).not.toMatch(/\n\s+at /); // a message, not a stack trace
      // Stopped before opening the data directory: no database made, no password generated and shown in vain.
      expect(existsSync(join(data, 'nonolab.sqlite')), JSON.stringify(env)).toBe(false);
      expect(r.output).not.toContain('experimenter password');
    }
  });

  it('refuses a second server on the same data directory (exit 2, naming the directory and the holder), and takes it once the first was SIGKILLed', async () => {
    const dataDir = tempDir('nonolab-data-');
    running = await startServer({ dataDir });
    const second = runMain({ NONOLAB_DATA_DIR: dataDir });
    expect(second.status).toBe(2);
    expect(second.output).toContain(`the data directory ${dataDir} is in use by another nonolab server (pid ${running.process.pid})`);
    expect(second.output).not.toMatch(/\n\s+at /);
    // The first still serves, untouched.
    expect((await fetch(`${running.url}/api/health`)).status).toBe(200);
    // SIGKILL leaves no lock behind: the kernel drops it with the process.
    await running.stop('SIGKILL');
    running = await startServer({ dataDir });
    expect((await fetch(`${running.url}/api/health`)).status).toBe(200);
  });
});
