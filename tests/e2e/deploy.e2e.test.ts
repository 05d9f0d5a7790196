// End to end: the study served as in the field (plain HTTP at a LAN-like name, and HTTPS), traffic on loopback only.
//
// Chromium resolves the name lab.test to 127.0.0.1 (--host-resolver-rules), so the page is a plain-HTTP origin that is
// not localhost: the case where helmet's default CSP (upgrade-insecure-requests) and HSTS left every page blank. A lab
// kiosk plays to its first puzzle and the experimenter opens the dashboard; then the same over HTTPS served by nonolab
// with a certificate made by the test, and behind nginx running docs/deploy/nginx-nonolab.conf (a VPS). The
// participant page's first load is measured on the wire (Chromium's counts).
// SQLite only: this is about serving (CSP, HTTPS, nginx), the same on either store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser.ts';
import { defaultConfig, startServer, writeConfig, type RunningServer } from '../support/server.ts';
import { SERVER_NAME, freePort, selfSignedCertificate, startNginx, type RunningNginx } from '../support/nginx.ts';
import { Driver, answerSurvey, doTutorial, waitForStep, type Played } from '../support/participant.ts';
import type { StudyConfig } from '../../shared/schema/config.ts';

const PASSWORD = 'deploy-e2e-password';
/** The budget for the participant page's first load, on the wire (headers included). */
const FIRST_LOAD_BUDGET = 120 * 1024;

function studyConfig(): StudyConfig {
  const config = defaultConfig();
  for (const phase of config.phases) if (phase.kind === 'warmup') phase.cap_seconds = 3;
  return config;
}

/** What the page loaded: each response's URL, headers and bytes on the wire. */
interface Load {
  url: string;
  headers: Record<string, string>;
  bytes: number;
}

async function watchNetwork(context: BrowserContext, page: Page): Promise<Load[]> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const byId = new Map<string, Load>();
  const done: Load[] = [];
  cdp.on('Network.responseReceived', (e) => {
    const headers = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
    byId.set(e.requestId, { url: e.response.url, headers, bytes: 0 });
  });
  cdp.on('Network.loadingFinished', (e) => {
    const load = byId.get(e.requestId);
    if (load) done.push({ ...load, bytes: e.encodedDataLength });
  });
  return done;
}

const MODES = {
  http: 'plain HTTP (a lab network)',
  https: 'HTTPS by nonolab itself',
  proxy: `HTTPS by nginx in front (docs/deploy/nginx-nonolab.conf, NONOLAB_TRUST_PROXY, NONOLAB_PUBLIC_URL)`,
} as const;

for (const mode of ['http', 'https', 'proxy'] as const) {
  const scheme = mode === 'http' ? 'http' : 'https';
  const host = mode === 'proxy' ? SERVER_NAME : 'lab.test';
  describe(`served over ${MODES[mode]}`, () => {
    let server: RunningServer;
    let nginx: RunningNginx | undefined;
    let browser: Browser;
    let config: StudyConfig;
    let origin = '';
    let sessionId = '';

    beforeAll(async () => {
      config = studyConfig();
      const env: Record<string, string> = { NONOLAB_ADMIN_PASSWORD: PASSWORD };
      if (mode === 'https') {
        const tls = selfSignedCertificate(['lab.test', 'localhost']);
        Object.assign(env, { NONOLAB_TLS_CERT: tls.cert, NONOLAB_TLS_KEY: tls.key });
      }
      if (mode === 'proxy') {
        // nginx first (it needs only the upstream's port), then nonolab on that port with nginx's address as its own.
        const upstream = await freePort();
        nginx = await startNginx(upstream);
        origin = `https://${SERVER_NAME}:${nginx.https}`;
        Object.assign(env, { PORT: String(upstream), NONOLAB_TRUST_PROXY: 'loopback', NONOLAB_PUBLIC_URL: origin });
      }
      server = await startServer({ configPath: writeConfig(config), env });
      if (mode !== 'proxy') {
        expect(server.url.startsWith(`${scheme}://localhost:`)).toBe(true);
        origin = server.url.replace('localhost', host);
      }
      browser = await launchBrowser([`--host-resolver-rules=MAP ${host} 127.0.0.1`, ...(scheme === 'https' ? ['--ignore-certificate-errors'] : [])]);
    });
    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      await nginx?.stop();
    });

    it(`a lab kiosk at ${scheme}://${host}:PORT/?mode=kiosk&label=P-001 plays to the first puzzle; the first load fits ${FIRST_LOAD_BUDGET / 1024} KB`, async () => {
      // Start-up named the address to open: the public one behind the proxy.
      if (mode === 'proxy') await expect.poll(() => server.output()).toContain(`participants open ${origin}/`);
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const loads = await watchNetwork(context, page);
      const requested: string[] = [];
      page.on('request', (req) => requested.push(req.url()));

      await page.goto(`${origin}/?mode=kiosk&label=P-001`);
      await page.getByTestId('consent-agree').waitFor();
      await page.waitForLoadState('networkidle');
      const firstLoad = loads.reduce((sum, l) => sum + l.bytes, 0);
      const script = loads.find((l) => /\/assets\/index-[^/]+\.js$/.test(l.url))!;
      console.log(`first load, ${MODES[mode]}: ${loads.length} responses, ${(firstLoad / 1024).toFixed(1)} KB on the wire (script ${script.headers['content-encoding']}, ${(script.bytes / 1024).toFixed(1)} KB)`);
      expect(firstLoad).toBeLessThanOrEqual(FIRST_LOAD_BUDGET);
      expect(['br', 'gzip']).toContain(script.headers['content-encoding']);
      expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const document = loads.find((l) => new URL(l.url).pathname === '/')!;
      expect(document.headers['cache-control']).toBe('no-cache');
      // Plain HTTP: nothing tells the browser to go to https; over HTTPS, HSTS and the upgrade directive.
      if (scheme === 'http') {
        expect(document.headers['strict-transport-security']).toBeUndefined();
        expect(document.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
      } else {
        expect(document.headers['strict-transport-security']).toMatch(/^max-age=/);
        expect(document.headers['content-security-policy']).toContain('upgrade-insecure-requests');
      }

      const driver = new Driver(page, 'mouse');
      const played: Played = { moves: [] };
      await driver.press('consent-agree');
      await waitForStep(page, 'tutorial');
      const tutorial = config.practice_puzzles.find((p) => p.id === 'tutorial')!.solution!;
      await doTutorial(driver, tutorial, played);
      await waitForStep(page, 'warmup');
      await waitForStep(page, 'survey'); // the 3-second cap moves on by itself
      await answerSurvey(page, { nonogram_skill: '6', puzzle_skill: '8', nonogram_frequency: 'Sometimes', logic_frequency: 'Often', nonogram_sizes: ['10x10'], academic_program: 'Biology' });
      await waitForStep(page, 'puzzle');
      await page.getByTestId('cell-0-0').waitFor();

      const state = await page.evaluate(async () => (await (await fetch('/api/session')).json()) as { session_id: string; status: string });
      expect(state.status).toBe('active');
      sessionId = state.session_id; // the dashboard test finds it under the kiosk's label
      // Every request stayed on the origin the kiosk opened: none was rewritten to another scheme.
      expect(requested.filter((u) => !u.startsWith(`${origin}/`))).toEqual([]);
      const token = (await context.cookies()).find((c) => c.name === 'nonolab_token')!;
      expect(token.secure).toBe(scheme === 'https');
      expect(token.httpOnly).toBe(true);
      await context.close();
    });

    if (mode === 'http')
      it("the board's code and styles arrive though the network drops while they are fetched", async () => {
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        const page = await context.newPage();
        const chunk = /\/assets\/(PuzzleView|board)-[^/]+\.(js|css)$/;
        const dropped: string[] = [];
        const drop = (route: { request: () => { url: () => string }; abort: (code?: string) => Promise<void> }) => {
          dropped.push(route.request().url());
          return route.abort('internetdisconnected');
        };
        await page.route(chunk, drop);
        await page.goto(`${origin}/?mode=kiosk&label=P-002`);
        await page.getByTestId('consent-agree').click(); // the board's code is asked for at once, and fails
        await expect.poll(() => dropped.some((u) => u.endsWith('.css')) && dropped.some((u) => u.endsWith('.js')), { timeout: 15_000 }).toBe(true);
        await page.unroute(chunk, drop);
        await waitForStep(page, 'tutorial');
        await page.getByTestId('cell-0-0').waitFor();
        // Styled, not only shown: the board's stylesheet was fetched again and applies.
        const style = await page.evaluate(() => {
          const board = getComputedStyle(document.querySelector('.board')!);
          const screen = getComputedStyle(document.querySelector('.puzzle-screen')!);
          const sheets = [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].filter((l) => /\/board-/.test(l.href));
          return { board: board.display, screen: screen.display, sheets: sheets.length };
        });
        expect(style).toEqual({ board: 'grid', screen: 'flex', sheets: 1 });
        await context.close();
      });

    it(`the experimenter opens ${scheme}://${host}:PORT/dashboard, logs in and sees the kiosk's session live`, async () => {
      expect(sessionId).not.toBe('');
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${origin}/dashboard`);
      await page.getByTestId('login-password').fill(PASSWORD);
      await page.getByTestId('login-submit').click();
      await page.getByTestId('sessions-table').waitFor();
      await expect.poll(() => page.getByTestId('live-connection').textContent()).toContain('live');
      await expect.poll(() => page.getByTestId(`session-row-${sessionId}`).textContent()).toContain('P-001');
      const admin = (await context.cookies()).find((c) => c.name === 'nonolab_admin')!;
      expect(admin.secure).toBe(scheme === 'https');
      await context.close();
    });
  });
}
