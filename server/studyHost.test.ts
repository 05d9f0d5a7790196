// Many studies on one server: every admin route (enumerated from the study admin router, so a new route cannot escape)
// walked with every role (owner, viewer, a non-member, no login) at both addresses (today's /api/admin/… for the first
// study, /api/admin/studies/<slug>/… for any); the server's own routes (accounts, members, studies) by role; the upgrade
// in place of a single-study data directory; and two studies played by bots at once staying apart. The walk and the
// two studies run on both stores (on PostgreSQL, the registry and each study beyond the first are in the database), and
// two server processes on one PostgreSQL database serve the same studies to the same accounts.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Participant, rowsMentioning, startTestServer, type TestServer } from '../tests/support/testServer.ts';
import { tempDir } from '../tests/support/tempDirs.ts';
import { hashPassword } from './admin/auth.ts';
import { StudyRegistry } from '../store/studies.ts';
import { loadStudyConfig } from '../node/studyConfig.ts';
import { simulateToServer } from '../analysis/simulate/index.ts';
import type { NonolabServer } from './app.ts';
import type { StudyHost } from './studyHost.ts';
import { STORES, databaseFor } from '../tests/support/postgres.ts';
import { readSse } from '../tests/support/sse.ts';

const ADMIN_PASSWORD = 'host-test-admin-password';
process.env.NONOLAB_ADMIN_PASSWORD = ADMIN_PASSWORD;
const root = join(import.meta.dirname, '..');

/** The simulation config (it trusts the client clock, so bots may run faster than real time), under another id. */
function configCopy(id: string, title: string): string {
  const raw = JSON.parse(readFileSync(join(root, 'study-config', 'simulation.json'), 'utf8'));
  const file = join(tempDir('nonolab-host-config-'), `${id}.json`);
  writeFileSync(file, JSON.stringify({ ...raw, id, title }));
  return file;
}

/** The schemas of a PostgreSQL database (not the system's). */
async function schemas(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const rows = (await client.query("SELECT schema_name FROM information_schema.schemata WHERE schema_name NOT LIKE 'pg\\_%' AND schema_name <> 'information_schema' ORDER BY 1")).rows;
    return rows.map((r: { schema_name: string }) => r.schema_name);
  } finally {
    await client.end();
  }
}

class Experimenter extends Participant {
  async login(name: string | undefined, password: string) {
    return this.call('POST', '/api/admin/login', name === undefined ? { password } : { name, password });
  }
}

async function as(base: string, name: string | undefined, password: string): Promise<Experimenter> {
  const e = new Experimenter(base);
  const r = await e.login(name, password);
  expect(r.status, `login ${name}`).toBe(200);
  return e;
}

/** A request whose answer is read only as far as its status and (unless a stream) its JSON body. */
async function ask(base: string, cookie: string, method: string, path: string): Promise<{ status: number; json: any }> {
  const controller = new AbortController();
  const res = await fetch(base + path, {
    method,
    headers: { ...(cookie ? { cookie } : {}), ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
    body: method === 'POST' ? '{}' : undefined,
    signal: controller.signal,
  });
  if ((res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    controller.abort();
    return { status: res.status, json: null };
  }
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, json };
}

/** The study admin router's routes, from the router itself: [method, path]. */
function adminRoutes(server: NonolabServer): [string, string][] {
  const out: [string, string][] = [];
  for (const layer of server.adminRouter.stack as unknown as { route?: { path: string; methods: Record<string, boolean> } }[]) {
    if (!layer.route) continue;
    for (const method of Object.keys(layer.route.methods)) if (method !== '_all') out.push([method.toUpperCase(), layer.route.path]);
  }
  return out;
}

describe.each(STORES)('roles on every admin route, two studies on one server, on %s', (store) => {
  let server: TestServer;
  let host: StudyHost;
  let sessionFirst: string;
  let sessionPilot: string;
  const pw = { olive: 'olive-password-1', vera: 'vera-password-1', nora: 'nora-password-1' };

  beforeAll(async () => {
    server = await startTestServer({ configPath: configCopy('first-study', 'The first study'), store });
    host = (server.nonolab as NonolabServer & { host: StudyHost }).host;
    expect(host.registry.kind).toBe(store);
    for (const [name, password] of Object.entries(pw)) await host.registry.addAccount({ name, password_hash: hashPassword(password), admin: false, now: Date.now(), by: null });
    const owner = (await host.registry.account('olive'))!;
    await host.addStudy('pilot', readFileSync(configCopy('pilot-study', 'The pilot'), 'utf8'), owner);
    await host.registry.setMember('pilot', 'vera', 'viewer', Date.now(), 'olive');
    await host.registry.setMember(host.firstSlug, 'vera', 'viewer', Date.now(), 'admin');
    await host.registry.setMember(host.firstSlug, 'olive', 'owner', Date.now(), 'admin');
    // nora is a member of neither study.
    const p1 = new Participant(server.url);
    sessionFirst = (await p1.call('POST', '/api/sessions', { mode: 'general' })).json.session_id;
    const p2 = new Participant(server.url);
    const started = await p2.call('POST', '/s/pilot/api/sessions', { mode: 'general' });
    expect(started.status).toBe(201);
    sessionPilot = started.json.session_id;
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it('upgrades in place: the first study is in the registry, today\'s password logs in as the admin account, owner of it', async () => {
    expect(host.firstSlug).toBe('first-study');
    const admin = await as(server.url, undefined, ADMIN_PASSWORD);
    const me = await admin.call('GET', '/api/admin/me');
    expect(me.json).toMatchObject({ ok: true, account: { name: 'admin', admin: true }, studies: [{ slug: 'first-study', role: 'owner' }] });
    // The same password by name.
    expect((await new Experimenter(server.url).login('admin', ADMIN_PASSWORD)).status).toBe(200);
    expect((await new Experimenter(server.url).login('admin', 'wrong')).status).toBe(401);
    expect((await new Experimenter(server.url).login('olive', 'wrong-password')).status).toBe(401);
    expect((await new Experimenter(server.url).login('nobody', 'whatever-1')).status).toBe(401);
  });

  it('walks every admin route with every role: owner reaches it, viewer only watches, a non-member gets 404, no login 401', async () => {
    const routes = adminRoutes(server.nonolab);
    // The router's routes, including the panels' (recruitment, lookup, funnel) mounted on it.
    expect(routes.map((r) => r.join(' '))).toEqual(expect.arrayContaining(['GET /overview', 'GET /live', 'POST /sessions/:id/withdraw', 'POST /recruitment', 'GET /funnel', 'GET /exports/:name']));
    expect(routes.length).toBeGreaterThanOrEqual(17);
    const olive = await as(server.url, 'olive', pw.olive);
    const vera = await as(server.url, 'vera', pw.vera);
    const nora = await as(server.url, 'nora', pw.nora);
    const gateAnswers = (r: { status: number; json: any }) => r.status === 401 || r.status === 403 || (r.status === 404 && r.json?.error === 'no such study');
    const problems: string[] = [];
    for (const [prefix, session] of [['/api/admin', sessionFirst], ['/api/admin/studies/first-study', sessionFirst], ['/api/admin/studies/pilot', sessionPilot]] as const) {
      for (const [method, pattern] of routes) {
        // Destructive owner routes get a body they refuse ({}): reaching the route is what is checked, not its effect.
        const path = prefix + pattern.replace(':id', session).replace(':name', pattern.startsWith('/exports') ? 'events' : 'x');
        const label = `${method} ${path}`;
        const anon = await ask(server.url, '', method, path);
        if (anon.status !== 401) problems.push(`${label} without login: ${anon.status}`);
        const outsider = await ask(server.url, nora.cookie, method, path);
        if (outsider.status !== 404 || outsider.json?.error !== 'no such study') problems.push(`${label} as a non-member: ${outsider.status} ${JSON.stringify(outsider.json).slice(0, 100)}`);
        const viewer = await ask(server.url, vera.cookie, method, path);
        const viewerMay = method === 'GET';
        if (viewerMay && gateAnswers(viewer)) problems.push(`${label} as viewer: refused ${viewer.status}`);
        if (!viewerMay && viewer.status !== 403) problems.push(`${label} as viewer: ${viewer.status}, expected 403`);
        const owner = await ask(server.url, olive.cookie, method, path);
        if (gateAnswers(owner)) problems.push(`${label} as owner: refused ${owner.status}`);
      }
      // The panel ids (identifying) are the owner's only.
      expect((await ask(server.url, vera.cookie, 'GET', `${prefix}/exports/panel-ids`)).status).toBe(403);
      expect((await ask(server.url, olive.cookie, 'GET', `${prefix}/exports/panel-ids`)).status).toBe(200);
    }
    expect(problems).toEqual([]);
    // A study that does not exist answers as a study one is not a member of.
    expect(await ask(server.url, olive.cookie, 'GET', '/api/admin/studies/no-such-study/overview')).toEqual({ status: 404, json: { error: 'no such study' } });
    // The admin is a member of the first study only: the pilot is not theirs to see.
    const admin = await as(server.url, undefined, ADMIN_PASSWORD);
    expect((await ask(server.url, admin.cookie, 'GET', '/api/admin/studies/pilot/sessions')).status).toBe(404);
  }, 240_000);

  it("answers each study's data at its own address only", async () => {
    const olive = await as(server.url, 'olive', pw.olive);
    const first = await olive.call('GET', '/api/admin/sessions');
    const pilot = await olive.call('GET', '/api/admin/studies/pilot/sessions');
    expect(first.json.sessions.map((s: any) => s.session_id)).toContain(sessionFirst);
    expect(first.json.sessions.map((s: any) => s.session_id)).not.toContain(sessionPilot);
    expect(pilot.json.sessions.map((s: any) => s.session_id)).toEqual([sessionPilot]);
    expect((await olive.call('GET', `/api/admin/studies/pilot/sessions/${sessionFirst}`)).status).toBe(404);
    expect((await olive.call('GET', '/api/admin/studies/pilot/overview')).json.study.id).toBe('pilot-study');
    expect((await olive.call('GET', '/api/admin/overview')).json.study.id).toBe('first-study');
    // A participant's token of one study is no session in the other.
    const p = new Participant(server.url);
    await p.call('POST', '/s/pilot/api/sessions', { mode: 'general' });
    expect((await p.call('GET', '/s/pilot/api/session')).status).toBe(200);
    expect((await p.call('GET', '/api/session/current')).json).toEqual({ session: null });
    expect((await p.call('GET', '/s/pilot/api/health')).json).toMatchObject({ study: 'pilot-study' });
    expect((await p.call('GET', '/s/no-such/api/health')).status).toBe(404);
    expect((await p.call('GET', '/s/pilot/api/admin/overview')).status).toBe(404);
  });

  it("serves the server's own routes by role: studies listed to members, members to owners, accounts to admins", async () => {
    const olive = await as(server.url, 'olive', pw.olive);
    const vera = await as(server.url, 'vera', pw.vera);
    const nora = await as(server.url, 'nora', pw.nora);
    const admin = await as(server.url, undefined, ADMIN_PASSWORD);
    const slugs = async (e: Experimenter) => (await e.call('GET', '/api/admin/studies')).json.studies.map((s: any) => [s.slug, s.role]);
    expect(await slugs(olive)).toEqual([['first-study', 'owner'], ['pilot', 'owner']]);
    expect(await slugs(vera)).toEqual([['first-study', 'viewer'], ['pilot', 'viewer']]);
    expect(await slugs(nora)).toEqual([]);
    const listed = (await olive.call('GET', '/api/admin/studies')).json.studies[1];
    expect(listed).toMatchObject({ slug: 'pilot', study_id: 'pilot-study', version: 1, archived: false, links: { participant: '/s/pilot/', admin_api: '/api/admin/studies/pilot/' } });
    expect((await nora.call('GET', '/api/admin/studies/pilot')).status).toBe(404);
    expect((await vera.call('GET', '/api/admin/studies/pilot')).status).toBe(200);
    expect((await vera.call('GET', '/api/admin/studies/pilot/members')).status).toBe(403);
    expect((await olive.call('GET', '/api/admin/studies/pilot/members')).json.members).toEqual([{ name: 'olive', role: 'owner' }, { name: 'vera', role: 'viewer' }]);
    expect((await vera.call('POST', '/api/admin/studies/pilot/members', { name: 'nora', role: 'viewer' })).status).toBe(403);
    expect((await nora.call('POST', '/api/admin/studies/pilot/members', { name: 'nora', role: 'owner' })).status).toBe(404);
    expect((await olive.call('POST', '/api/admin/studies/pilot/members', { name: 'olive', role: null })).status).toBe(409); // the last owner stays
    expect((await olive.call('GET', '/api/admin/accounts')).status).toBe(403);
    expect((await admin.call('GET', '/api/admin/accounts')).json.accounts.map((a: any) => a.name)).toEqual(['admin', 'nora', 'olive', 'vera']);
    expect((await olive.call('POST', '/api/admin/accounts', { name: 'zed', password: 'zed-password' })).status).toBe(403);
    expect((await admin.call('POST', '/api/admin/accounts', { name: 'zed', password: 'short' })).status).toBe(400);
    expect((await admin.call('POST', '/api/admin/accounts', { name: 'zed', password: 'zed-password-1' })).status).toBe(201);
    expect((await admin.call('POST', '/api/admin/accounts', { name: 'zed', password: 'zed-password-1' })).status).toBe(400);
    await as(server.url, 'zed', 'zed-password-1');
    // A logout ends the login.
    expect((await olive.call('POST', '/api/admin/logout', {})).status).toBe(200);
    expect((await olive.call('GET', '/api/admin/me')).status).toBe(401);
  });

  it('adds a study from the dashboard (a config that fails validate-config is refused with its messages), archives and deletes it with an audit row', async () => {
    const nora = await as(server.url, 'nora', pw.nora);
    const bad = await nora.call('POST', '/api/admin/studies', { slug: 'typo', config: { id: 'x', titel: 'a study' } });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toBe('invalid study config');
    expect(bad.json.issues.length).toBeGreaterThan(0);
    expect((await nora.call('POST', '/api/admin/studies', { slug: 'Bad Slug', config: {} })).status).toBe(400);
    const config = JSON.parse(readFileSync(configCopy('nora-study', 'Nora'), 'utf8'));
    const added = await nora.call('POST', '/api/admin/studies', { slug: 'nora', config });
    expect(added.status).toBe(201);
    expect(added.json.study).toMatchObject({ slug: 'nora', role: 'owner', version: 1 });
    expect((await nora.call('POST', '/api/admin/studies', { slug: 'nora', config })).status).toBe(400);
    const p = new Participant(server.url);
    expect((await p.call('POST', '/s/nora/api/sessions', { mode: 'general' })).status).toBe(201);
    expect((await nora.call('POST', '/api/admin/studies/nora/archive', { archived: true })).json.study.archived).toBe(true);
    // Read-only: no new participant, no change; its data still there to watch and export.
    expect((await new Participant(server.url).call('POST', '/s/nora/api/sessions', { mode: 'general' })).status).toBe(410);
    expect((await nora.call('POST', '/api/admin/studies/nora/recruitment', { open: false })).status).toBe(409);
    expect((await nora.call('GET', '/api/admin/studies/nora/sessions')).json.sessions).toHaveLength(1);
    expect((await nora.call('POST', '/api/admin/studies/nora/delete', { confirm: 'wrong' })).status).toBe(400);
    expect((await nora.call('POST', '/api/admin/studies/nora/delete', { confirm: 'nora' })).json).toEqual({ deleted: true, slug: 'nora' });
    expect((await nora.call('GET', '/api/admin/studies/nora/sessions')).status).toBe(404);
    expect((await p.call('GET', '/s/nora/api/session')).status).toBe(404);
    expect((await host.registry.auditRows()).map((r) => r.action)).toEqual(expect.arrayContaining(['study_add', 'study_archive', 'study_delete']));
    // Its data went with it: its folder, and on PostgreSQL its schema (the pilot's stays).
    expect(existsSync(join(server.dataDir, 'studies', 'nora'))).toBe(false);
    if (server.databaseUrl) expect(await schemas(server.databaseUrl)).toEqual(expect.arrayContaining(['nonolab_registry', 'public', 'study_pilot']));
    if (server.databaseUrl) expect(await schemas(server.databaseUrl)).not.toContain('study_nora');
    // The first study cannot be deleted.
    const admin = await as(server.url, undefined, ADMIN_PASSWORD);
    expect((await admin.call('POST', `/api/admin/studies/${host.firstSlug}/delete`, { confirm: host.firstSlug })).status).toBe(409);
  });

  it('runs two studies at once with bots and keeps them apart: pools, logs, exports, funnels', async () => {
    const olive = await as(server.url, 'olive', pw.olive);
    const firstStudy = loadStudyConfig(configCopy('first-study', 'The first study'));
    const pilotStudy = loadStudyConfig(configCopy('pilot-study', 'The pilot'));
    const count = async (prefix: string) => (await olive.call('GET', `${prefix}/sessions`)).json.sessions.length;
    const [firstBefore, pilotBefore] = [await count('/api/admin'), await count('/api/admin/studies/pilot')];
    await Promise.all([
      simulateToServer({ participants: 3, seed: 11, study: firstStudy }, server.url, undefined, 3),
      simulateToServer({ participants: 2, seed: 12, study: pilotStudy }, `${server.url}/s/pilot/`, undefined, 2),
    ]);
    expect(await count('/api/admin')).toBe(firstBefore + 3);
    expect(await count('/api/admin/studies/pilot')).toBe(pilotBefore + 2);
    // Each log is in its own study's store, stamped with its own config.
    const firstIds: string[] = (await olive.call('GET', '/api/admin/sessions')).json.sessions.map((s: any) => s.session_id);
    const pilotIds: string[] = (await olive.call('GET', '/api/admin/studies/pilot/sessions')).json.sessions.map((s: any) => s.session_id);
    expect(firstIds.filter((id) => pilotIds.includes(id))).toEqual([]);
    for (const id of pilotIds) {
      const records = (await olive.call('GET', `/api/admin/studies/pilot/sessions/${id}/events`)).json.records;
      expect(records.every((r: any) => r.config_hash === pilotStudy.hash)).toBe(true);
      expect((await olive.call('GET', `/api/admin/sessions/${id}/events`)).status).toBe(404);
    }
    // Pools: each study leased its own sequences, one per session of its own.
    const firstPool = (await olive.call('GET', '/api/admin/pool')).json.sequences.filter((s: any) => s.session_id);
    const pilotPool = (await olive.call('GET', '/api/admin/studies/pilot/pool')).json.sequences.filter((s: any) => s.session_id);
    expect(firstPool.every((s: any) => firstIds.includes(s.session_id))).toBe(true);
    expect(pilotPool.every((s: any) => pilotIds.includes(s.session_id))).toBe(true);
    // Funnels and exports count each study's sessions only.
    const funnelStarted = async (prefix: string) => (await olive.call('GET', `${prefix}/funnel`)).json;
    const ff = await funnelStarted('/api/admin');
    const pf = await funnelStarted('/api/admin/studies/pilot');
    expect(JSON.stringify(ff)).not.toEqual(JSON.stringify(pf));
    const csvIds = async (prefix: string) => {
      const res = await fetch(`${server.url}${prefix}/exports/participants`, { headers: { cookie: olive.cookie } });
      expect(res.headers.get('content-disposition')).toMatch(prefix.includes('pilot') ? /pilot-study-/ : /first-study-/);
      const text = await res.text();
      return [...new Set([...firstIds, ...pilotIds].filter((id) => text.includes(id)))];
    };
    const firstCsv = await csvIds('/api/admin');
    const pilotCsv = await csvIds('/api/admin/studies/pilot');
    expect(firstCsv.filter((id) => pilotIds.includes(id))).toEqual([]);
    expect(pilotCsv.filter((id) => firstIds.includes(id))).toEqual([]);
    expect(pilotCsv.length).toBeGreaterThanOrEqual(2);
    expect(firstCsv.length).toBeGreaterThanOrEqual(3);
  }, 240_000);
});

describe('upgrade in place', () => {
  it('a single-study data directory (no registry) keeps its sessions, links and password; its study becomes the first', async () => {
    const dataDir = tempDir('nonolab-upgrade-');
    const configPath = configCopy('old-study', 'An old study');
    let server = await startTestServer({ dataDir, configPath });
    const p = new Participant(server.url);
    const id = (await p.call('POST', '/api/sessions', { mode: 'general' })).json.session_id;
    await server.close();
    // What a data directory of the single-study version holds: no studies.sqlite.
    for (const f of ['studies.sqlite', 'studies.sqlite-wal', 'studies.sqlite-shm']) rmSync(join(dataDir, f), { force: true });
    server = await startTestServer({ dataDir, configPath });
    try {
      // The same browser (its cookie) at the restarted server.
      const again = new Participant(server.url);
      again.cookie = p.cookie;
      expect((await again.call('GET', '/api/session')).json.session_id).toBe(id);
      expect((await again.call('GET', '/s/old-study/api/session')).json.session_id).toBe(id);
      const admin = await as(server.url, undefined, ADMIN_PASSWORD);
      expect((await admin.call('GET', '/api/admin/me')).json).toMatchObject({ account: { name: 'admin', admin: true }, studies: [{ slug: 'old-study', role: 'owner' }] });
      expect((await admin.call('GET', '/api/admin/studies/old-study/sessions')).json.sessions.map((s: any) => s.session_id)).toEqual([id]);
    } finally {
      await server.close();
    }
  });

  it('a server that kept its registry in the data directory while on PostgreSQL carries it into the database at its first start: the same accounts, passwords and studies', async () => {
    const dataDir = tempDir('nonolab-pg-upgrade-');
    const configPath = configCopy('older-pg', 'A study on PostgreSQL');
    const before = StudyRegistry.open(dataDir);
    const now = Date.now();
    const config = readFileSync(configPath, 'utf8');
    await before.addStudy({ slug: 'older-pg', study_id: 'older-pg', title: 'A study on PostgreSQL', config_hash: 'c0ffee', config_json: config, first: true, now, by: null });
    await before.addStudy({ slug: 'later', study_id: 'later', title: 'Added, never served', config_hash: 'beef', config_json: readFileSync(configCopy('later', 'Later'), 'utf8'), now, by: null });
    await before.addAccount({ name: 'admin', password_hash: null, admin: true, now, by: null });
    await before.addAccount({ name: 'erin', password_hash: hashPassword('erin-password-1'), admin: false, now, by: null });
    await before.setMember('older-pg', 'admin', 'owner', now, null);
    await before.setMember('older-pg', 'erin', 'viewer', now, null);
    await before.setMember('later', 'erin', 'owner', now, null);
    await before.close();
    const printed: string[] = [];
    const server = await startTestServer({ dataDir, configPath, store: 'postgres', logger: (m) => printed.push(m) });
    try {
      expect(printed.filter((m) => m.startsWith('registry: carried'))).toEqual([expect.stringContaining('2 study(ies), 2 account(s) and 3 membership(s)')]);
      const host = (server.nonolab as NonolabServer & { host: StudyHost }).host;
      expect(host.registry.kind).toBe('postgres');
      expect(host.firstSlug).toBe('older-pg');
      const erin = await as(server.url, 'erin', 'erin-password-1');
      expect((await erin.call('GET', '/api/admin/studies')).json.studies.map((s: any) => [s.slug, s.role])).toEqual([['older-pg', 'viewer'], ['later', 'owner']]);
      expect((await new Participant(server.url).call('POST', '/s/later/api/sessions', { mode: 'general' })).status).toBe(201);
      const admin = await as(server.url, undefined, ADMIN_PASSWORD);
      expect((await admin.call('GET', '/api/admin/me')).json.studies).toEqual([{ slug: 'older-pg', role: 'owner' }]);
      expect((await host.registry.auditRows()).map((r) => r.action)).toContain('registry_import');
    } finally {
      await server.close();
    }
  });

  it('a changed config of the first study is a new version; the sessions keep the hash they started with', async () => {
    const dataDir = tempDir('nonolab-versions-');
    const configPath = configCopy('versioned', 'Version one');
    let server = await startTestServer({ dataDir, configPath });
    const p = new Participant(server.url);
    const started = (await p.call('POST', '/api/sessions', { mode: 'general' })).json;
    const firstHash = started.study.config_hash;
    await server.close();
    const raw = JSON.parse(readFileSync(configPath, 'utf8'));
    writeFileSync(configPath, JSON.stringify({ ...raw, title: 'Version two' }));
    server = await startTestServer({ dataDir, configPath });
    try {
      const admin = await as(server.url, undefined, ADMIN_PASSWORD);
      const info = (await admin.call('GET', '/api/admin/studies/versioned')).json;
      expect(info.versions.map((v: any) => v.version)).toEqual([1, 2]);
      expect(info.study).toMatchObject({ title: 'Version two', version: 2 });
      expect(info.versions[0].config_hash).toBe(firstHash);
      const records = (await admin.call('GET', `/api/admin/sessions/${started.session_id}/events`)).json.records;
      expect(records.length).toBeGreaterThan(0);
      expect(records.every((r: any) => r.config_hash === firstHash)).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe('two server processes on one PostgreSQL database', () => {
  it('start at once on an empty database: every one comes up, with one first study, one version of it and one admin account', async () => {
    const url = (await databaseFor('postgres'))!;
    const configPath = configCopy('racing', 'Started at once');
    const servers = await Promise.all([0, 1, 2].map(() => startTestServer({ configPath, databaseUrl: url })));
    try {
      for (const s of servers) {
        const host = (s.nonolab as NonolabServer & { host: StudyHost }).host;
        expect(host.firstSlug).toBe('racing');
        expect((await host.registry.studies()).map((x) => x.slug)).toEqual(['racing']);
        expect((await host.registry.versions('racing')).map((v) => v.version)).toEqual([1]);
        expect((await host.registry.accounts()).map((a) => a.name)).toEqual(['admin']);
        expect((await host.registry.members('racing')).map((m) => [m.account, m.role])).toEqual([['admin', 'owner']]);
        expect((await (await as(s.url, undefined, ADMIN_PASSWORD)).call('GET', '/api/admin/me')).json.studies).toEqual([{ slug: 'racing', role: 'owner' }]);
      }
    } finally {
      for (const s of servers) await s.close();
    }
  }, 120_000);

  it('serve the same studies to the same accounts: a study added, a member given, a session started at one, seen and carried on at the other', async () => {
    const url = (await databaseFor('postgres'))!;
    const configPath = configCopy('shared-first', 'The shared first study');
    // Each its own (empty) data directory, as on two machines.
    const a = await startTestServer({ configPath, databaseUrl: url });
    const b = await startTestServer({ configPath, databaseUrl: url });
    try {
      const hostA = (a.nonolab as NonolabServer & { host: StudyHost }).host;
      expect(hostA.firstSlug).toBe('shared-first');
      expect((b.nonolab as NonolabServer & { host: StudyHost }).host.firstSlug).toBe('shared-first');
      // An account added by the admin at A logs in at B; the study it adds at A is served at B.
      const adminA = await as(a.url, undefined, ADMIN_PASSWORD);
      expect((await adminA.call('POST', '/api/admin/accounts', { name: 'olga', password: 'olga-password-1' })).status).toBe(201);
      expect((await adminA.call('POST', '/api/admin/accounts', { name: 'victor', password: 'victor-password-1' })).status).toBe(201);
      const olgaB = await as(b.url, 'olga', 'olga-password-1');
      const olgaA = new Experimenter(a.url);
      olgaA.cookie = olgaB.cookie; // the login made at B is good at A
      const config = JSON.parse(readFileSync(configCopy('shared-pilot', 'The shared pilot'), 'utf8'));
      expect((await olgaA.call('POST', '/api/admin/studies', { slug: 'pilot', config })).status).toBe(201);
      // B's inactivity sweep (one process sweeps for all) takes in the study added at A before any request reached B.
      const hostB = (b.nonolab as NonolabServer & { host: StudyHost }).host;
      expect(hostB.loaded().map((h) => h.record.slug)).toEqual(['shared-first']);
      await hostB.sweepInactive();
      expect(hostB.loaded().map((h) => h.record.slug)).toEqual(['shared-first', 'pilot']);
      expect((await olgaB.call('POST', '/api/admin/studies/pilot/members', { name: 'victor', role: 'viewer' })).status).toBe(200);
      const victorA = await as(a.url, 'victor', 'victor-password-1');
      expect((await victorA.call('GET', '/api/admin/studies')).json.studies.map((s: any) => [s.slug, s.role])).toEqual([['pilot', 'viewer']]);
      // Live streams at A, of each study: each hears of its own study's sessions started at B, never of the other's.
      const ids = { pilot: '', first: '' };
      const stream = (path: string, cookie: string, until: () => string) =>
        fetch(a.url + path, { headers: { cookie } }).then((res) => readSse(res, (events) => until() !== '' && JSON.stringify(events).includes(until())));
      const pilotLive = stream('/api/admin/studies/pilot/live', olgaA.cookie, () => ids.pilot);
      const firstLive = stream('/api/admin/live', adminA.cookie, () => ids.first);
      await new Promise((r) => setTimeout(r, 300)); // both streams subscribed
      // A participant starts in the pilot at B and carries on at A (one store: the pilot's schema).
      const p = new Participant(b.url);
      const started = await p.call('POST', '/s/pilot/api/sessions', { mode: 'general' });
      expect(started.status).toBe(201);
      ids.pilot = started.json.session_id;
      // Then one in the first study, at B: once the first study's stream has it, it would have had the pilot's before.
      const firstParticipant = new Participant(b.url);
      ids.first = (await firstParticipant.call('POST', '/api/sessions', { mode: 'general' })).json.session_id;
      const [pilotEvents, firstEvents] = await Promise.all([pilotLive, firstLive]);
      expect(JSON.stringify(pilotEvents)).toContain(ids.pilot);
      expect(JSON.stringify(pilotEvents)).not.toContain(ids.first);
      expect(JSON.stringify(firstEvents)).toContain(ids.first);
      expect(JSON.stringify(firstEvents)).not.toContain(ids.pilot);
      const atA = new Participant(a.url);
      atA.cookie = p.cookie;
      expect((await atA.call('GET', '/s/pilot/api/session')).json.session_id).toBe(started.json.session_id);
      expect((await victorA.call('GET', '/api/admin/studies/pilot/sessions')).json.sessions.map((s: any) => s.session_id)).toEqual([started.json.session_id]);
      expect((await olgaB.call('GET', '/api/admin/studies/pilot/sessions')).json.sessions.map((s: any) => s.session_id)).toEqual([started.json.session_id]);
      // Not in the first study's tables, and the viewer cannot change anything at either.
      expect((await adminA.call('GET', '/api/admin/sessions')).json.sessions.map((s: any) => s.session_id)).toEqual([ids.first]);
      expect((await victorA.call('POST', '/api/admin/studies/pilot/recruitment', { open: false })).status).toBe(403);
      // A pilot participant who withdraws at B leaves no row anywhere in the database (any schema).
      const leaving = new Participant(`${b.url}/s/pilot`);
      const leavingId = (await leaving.call('POST', '/api/sessions', { mode: 'general' })).json.session_id;
      expect(await rowsMentioning(url, leavingId)).not.toEqual([]);
      expect((await leaving.call('POST', '/api/session/withdraw', {})).status).toBe(200);
      expect(await rowsMentioning(url, leavingId)).toEqual([]);
      // Deleted at A: gone at B too (its next request finds it no more).
      expect((await olgaA.call('POST', '/api/admin/studies/pilot/delete', { confirm: 'pilot' })).status).toBe(200);
      expect((await p.call('GET', '/s/pilot/api/session')).status).toBe(404);
      expect((await olgaB.call('GET', '/api/admin/studies/pilot/sessions')).status).toBe(404);
      expect(await schemas(url)).not.toContain('study_pilot');
    } finally {
      await a.close();
      await b.close();
    }
  }, 120_000);
});

describe('the command line on PostgreSQL', () => {
  /** `nonolab ARGS` from the sources, NONOLAB_DATABASE_URL as given (unset otherwise). */
  const cli = (args: string[], databaseUrl?: string) => {
    const env: NodeJS.ProcessEnv = { ...process.env, NONOLAB_DATA_DIR: tempDir('nonolab-cli-data-') };
    delete env.NONOLAB_DATABASE_URL;
    if (databaseUrl) env.NONOLAB_DATABASE_URL = databaseUrl;
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'analysis', 'cli.ts'), ...args], { cwd: root, encoding: 'utf8', env });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  it('user add, study add and study list work on the database (--database or NONOLAB_DATABASE_URL); a server on it serves the study to that account', async () => {
    const url = (await databaseFor('postgres'))!;
    const password = join(tempDir('nonolab-cli-pw-'), 'carol.pw');
    writeFileSync(password, 'carol-password-1\n');
    const added = cli(['user', 'add', 'carol', '--password-file', password, '--database', url]);
    expect(added.stderr).toBe('');
    expect(JSON.parse(added.stdout)).toEqual({ name: 'carol', admin: false });
    const config = configCopy('cli-study', 'A study added from the command line');
    const study = cli(['study', 'add', config, '--slug', 'cli', '--owner', 'carol'], url);
    expect(study.status, study.stderr).toBe(0);
    expect(JSON.parse(study.stdout)).toMatchObject({ slug: 'cli', participant_link: '/s/cli/', members: [{ name: 'carol', role: 'owner' }] });
    // Bad input: one line, exit 2, nothing changed.
    const taken = cli(['study', 'add', config, '--slug', 'cli', '--database', url]);
    expect([taken.status, taken.stderr]).toEqual([2, expect.stringMatching(/^nonolab study add: --slug cli: a study with this slug exists already\n$/)]);
    const badUrl = cli(['user', 'add', 'dave', '--password-file', password, '--database', 'mysql://somewhere/db']);
    expect([badUrl.status, badUrl.stderr]).toEqual([2, expect.stringMatching(/--database: expected postgres:/)]);
    const listed = cli(['study', 'list', '--database', url]);
    expect(listed.stdout.trim().split('\n').map((l) => JSON.parse(l))).toEqual([
      expect.objectContaining({ slug: 'cli', id: 'cli-study', first: false, schema: 'study_cli', members: [{ name: 'carol', role: 'owner' }] }),
    ]);

    const server = await startTestServer({ configPath: configCopy('cli-first', 'The first study'), databaseUrl: url });
    try {
      const carol = await as(server.url, 'carol', 'carol-password-1');
      expect((await carol.call('GET', '/api/admin/studies')).json.studies.map((s: any) => [s.slug, s.role])).toEqual([['cli', 'owner']]);
      const p = new Participant(server.url);
      const started = await p.call('POST', '/s/cli/api/sessions', { mode: 'general' });
      expect(started.status).toBe(201);
      expect((await carol.call('GET', '/api/admin/studies/cli/sessions')).json.sessions.map((s: any) => s.session_id)).toEqual([started.json.session_id]);
      expect((await carol.call('GET', '/api/admin/sessions')).status).toBe(404);
    } finally {
      await server.close();
    }
    const after = cli(['study', 'list'], url).stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(after.map((s: any) => [s.slug, s.first, s.schema])).toEqual([['cli-first', true, 'public'], ['cli', false, 'study_cli']]);
  }, 120_000);
});
