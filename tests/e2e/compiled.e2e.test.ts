// The compiled server (dist/node/server.js as scripts/build.mjs makes it): starts on an empty data directory, answers /api/health and serves the built client.
// SQLite only: this is about the build and serving; the stores are exercised by the storage suites (study, dashboard, ...).
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCompiled } from '../support/compiled.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { tempDir } from '../support/tempDirs.ts';

let build: ReturnType<typeof buildCompiled>;
let running: RunningServer | undefined;
beforeAll(() => {
  build = buildCompiled('server');
});
afterAll(async () => {
  await running?.stop();
  build?.remove();
});

describe('compiled server', () => {
  it('starts on an empty data directory, answers /api/health and serves the client with its assets', async () => {
    const dataDir = tempDir('nonolab-compiled-data-');
    expect(readdirSync(dataDir)).toEqual([]);
    running = await startServer({ entry: join(build.dir, 'server.js'), dataDir, env: { NONOLAB_ADMIN_PASSWORD: 'compiled build test' } });
    const health = await fetch(`${running.url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ ok: true, study: 'nonogram-difficulty' });
    const page = await fetch(`${running.url}/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<div id="root">');
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html);
    expect(script, html).not.toBeNull();
    const asset = await fetch(`${running.url}${script![1]}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    // The data directory is the one given (the SQLite store opened there).
    expect(existsSync(join(dataDir, 'nonolab.sqlite'))).toBe(true);
    expect(running.output()).toContain(`data: ${dataDir}`);
  });
});
