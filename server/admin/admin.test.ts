// Integration tests of the experimenter API over real HTTP: the login boundary, live summaries, pool, actions, exports;
// on both stores (SQLite + NDJSON, and PostgreSQL on the test cluster), where the experimenter's state lives too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Participant, event, playSteps, rowsMentioning, startTestServer, type TestServer } from '../../tests/support/testServer.ts';
import { defaultConfig } from '../../tests/support/server.ts';
import { SqliteStore, type StudyStore } from '../../store/store.ts';
import { PgStore } from '../../store/pgStore.ts';
import { AdminAuth, hashPassword, verifyPassword } from './auth.ts';
import { parseSessionNdjson } from '../../shared/signals/session.ts';
import { tempDir } from '../../tests/support/tempDirs.ts';
import { readSse } from '../../tests/support/sse.ts';
import { STORES, databaseFor, type StoreKind } from '../../tests/support/postgres.ts';

const PASSWORD = 'correct horse battery staple';
process.env.NONOLAB_ADMIN_PASSWORD = PASSWORD;

let server: TestServer;

/** A bare store of `kind` (a fresh database), for the password's own tests. */
async function openStore(kind: StoreKind): Promise<StudyStore> {
  return kind === 'postgres' ? PgStore.open((await databaseFor(kind))!) : new SqliteStore(join(tempDir('nonolab-auth-'), 'db.sqlite'));
}

/** A session's log as its NDJSON text, from whichever store the server runs on. */
async function logText(sessionId: string): Promise<string> {
  return (await server.nonolab.log.read(sessionId)).map((r) => `${JSON.stringify(r)}\n`).join('');
}

/** An experimenter's client: keeps the admin cookie. */
class Experimenter extends Participant {
  async login(password = PASSWORD) {
    return this.call('POST', '/api/admin/login', { password });
  }
}

async function loggedIn(): Promise<Experimenter> {
  const e = new Experimenter(server.url);
  expect((await e.login()).status).toBe(200);
  return e;
}

/** A participant who started and consented (events 1 and 2): the sequence is leased at consent. */
async function startParticipant(label?: string): Promise<{ p: Participant; id: string; sequence: string[]; seq: number }> {
  const p = new Participant(server.url);
  const res = await p.call('POST', '/api/sessions', { mode: label ? 'kiosk' : 'general', ...(label ? { label } : {}) });
  expect(res.status).toBe(201);
  const seq = await playSteps(p, res.json, defaultConfig(), 1);
  return { p, id: res.json.session_id, sequence: res.json.sequence, seq };
}

describe.each(STORES)('on %s', (kind) => {
beforeAll(async () => {
  server = await startTestServer({ store: kind });
});
afterAll(async () => {
  await server?.close();
});

describe('the login boundary', () => {
  const routes: [string, string][] = [
    ['GET', '/api/admin/me'],
    ['GET', '/api/admin/overview'],
    ['GET', '/api/admin/sessions'],
    ['GET', '/api/admin/sessions/sabc'],
    ['GET', '/api/admin/sessions/sabc/events'],
    ['GET', '/api/admin/sessions/sabc/live'],
    ['GET', '/api/admin/live'],
    ['GET', '/api/admin/pool'],
    ['GET', '/api/admin/exports'],
    ['GET', '/api/admin/exports/events'],
    ['GET', '/api/admin/nonexistent'],
    ['POST', '/api/admin/sessions/sabc/withdraw'],
    ['POST', '/api/admin/sessions/sabc/flag'],
    ['POST', '/api/admin/sessions/sabc/extend'],
    ['POST', '/api/admin/sessions/sabc/end'],
  ];

  it('answers 401 on every admin route without a login, and with a participant token', async () => {
    const { p } = await startParticipant();
    for (const client of [new Participant(server.url), p])
      for (const [method, path] of routes) {
        const res = await client.call(method, path, method === 'POST' ? {} : undefined);
        expect(res.status, `${method} ${path}`).toBe(401);
      }
  });

  it('logs in with the password into an httpOnly SameSite=Strict cookie, and out again', async () => {
    const e = new Experimenter(server.url);
    const res = await fetch(`${server.url}/api/admin/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password: PASSWORD }) });
    expect(res.status).toBe(200);
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^nonolab_admin=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/Path=\/api\/admin/i);
    e.cookie = cookie.split(';')[0];
    expect((await e.call('GET', '/api/admin/me')).status).toBe(200);
    expect((await e.call('POST', '/api/admin/logout', {})).status).toBe(200);
    expect((await e.call('GET', '/api/admin/me')).status).toBe(401);
  });
});

describe('the password', () => {
  it('is hashed with scrypt and verified in constant time', () => {
    const h = hashPassword('secret');
    expect(h).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(h).not.toContain('secret');
    expect(verifyPassword('secret', h)).toBe(true);
    expect(verifyPassword('Secret', h)).toBe(false);
    expect(verifyPassword('secret', 'md5$x')).toBe(false);
  });

  it('is generated and printed once at first start when none is given; a given one replaces it', async () => {
    const store = await openStore(kind);
    try {
      const printed: string[] = [];
      const first = await AdminAuth.open({ store, log: (m) => printed.push(m) });
      expect(printed).toHaveLength(1);
      const password = /: (\S+)\n/.exec(printed[0])![1];
      expect(await first.login(password)).not.toBeNull();
      await AdminAuth.open({ store, log: (m) => printed.push(m) });
      expect(printed).toHaveLength(1);
      const stored = (await store.adminPasswordHash())!;
      expect(stored).toMatch(/^scrypt\$/);
      expect(stored).not.toContain(password);
      const session = (await first.login(password))!;
      expect(await first.check(session.token)).toBe(session.expires_at);
      const byEnv = await AdminAuth.open({ store, password: 'chosen', log: (m) => printed.push(m) });
      expect(printed).toHaveLength(1);
      expect(await byEnv.login(password)).toBeNull();
      expect(await byEnv.login('chosen')).not.toBeNull();
      expect(await byEnv.check(session.token)).toBeNull(); // a new password ends old logins
      expect(await first.check(session.token)).toBeNull(); // at every instance on the store
    } finally {
      await store.close();
    }
  });

  it('a login checked against a password that changed before it was stored is refused (it must not outlive the password)', async () => {
    const store = await openStore(kind);
    try {
      const auth = await AdminAuth.open({ store, password: 'old', log: () => {} });
      const oldHash = (await store.adminPasswordHash())!;
      // Another process changes the password between this one's check and its insert.
      await (await AdminAuth.open({ store, password: 'new', log: () => {} })).setPassword('new');
      expect(await store.insertAdminLogin('a-token-hash', 1, 2, oldHash)).toBe(false);
      expect(await store.adminLoginExpiry('a-token-hash')).toBeUndefined();
      expect(await auth.login('old')).toBeNull();
      expect(await auth.login('new')).not.toBeNull();
    } finally {
      await store.close();
    }
  });

  it('is generated by one of several processes starting at once on one store, and printed by that one only', async () => {
    const store = await openStore(kind);
    try {
      const printed: string[] = [];
      const auths = await Promise.all([0, 1, 2, 3].map(() => AdminAuth.open({ store, log: (m) => printed.push(m) })));
      expect(printed).toHaveLength(1);
      const password = /: (\S+)\n/.exec(printed[0])![1];
      for (const auth of auths) expect(await auth.login(password)).not.toBeNull();
    } finally {
      await store.close();
    }
  });
});

describe('live sessions', () => {
  it('summarises sessions and pushes changes over SSE', async () => {
    const e = await loggedIn();
    const a = await startParticipant('P01');
    const res = await fetch(`${server.url}/api/admin/live`, { headers: { cookie: e.cookie } });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const pending = readSse(res, (got) => got.some((g) => g.event === 'changes' && g.data.messages.some((m: any) => m.summary?.session_id === a.id && m.summary.moves === 2)));
    const onPuzzle = { step: 4, phase: 'puzzles', puzzle_id: a.sequence[0], position: 1 };
    const seq = await playSteps(a.p, { session_id: a.id, sequence: a.sequence }, defaultConfig(), 4, { from: 1, seq: a.seq });
    await a.p.call('POST', '/api/session/events', {
      events: [
        event(a.id, seq + 1, { ...onPuzzle, type: 'step_start', payload: { kind: 'puzzle' } }),
        event(a.id, seq + 2, { ...onPuzzle, type: 'move', payload: { move: { type: 'fill', row: 0, col: 0 } } }),
        event(a.id, seq + 3, { ...onPuzzle, type: 'move', payload: { move: { type: 'cross', row: 0, col: 1 } } }),
      ],
    });
    const got = await pending;
    expect(got[0].event).toBe('snapshot');
    expect(got[0].data.sessions.some((s: any) => s.session_id === a.id)).toBe(true);
    const last = got.at(-1)!.data.messages.find((m: any) => m.summary?.session_id === a.id).summary;
    expect(last).toMatchObject({ label: 'P01', mode: 'kiosk', step: 4, step_kind: 'puzzle', puzzle_id: a.sequence[0], position: 1, moves: 2 });

    const one = await e.call('GET', `/api/admin/sessions/${a.id}`);
    expect(one.json.summary.moves).toBe(2);
    const records = await e.call('GET', `/api/admin/sessions/${a.id}/events`);
    expect(records.json.records.map((r: any) => r.type).slice(0, 2)).toEqual(['session_start', 'step_start']);
    expect(records.json.records.map((r: any) => r.type).slice(-3)).toEqual(['step_start', 'move', 'move']);
  });

  it('streams one session`s records for the live mirror', async () => {
    const e = await loggedIn();
    const a = await startParticipant();
    const res = await fetch(`${server.url}/api/admin/sessions/${a.id}/live`, { headers: { cookie: e.cookie } });
    // Send the next batch once the stream has delivered the log so far (it is live from then on), not after a guess.
    let delivered!: () => void;
    const initial = new Promise<void>((resolve) => (delivered = resolve));
    const pending = readSse(res, (got) => {
      const n = got.filter((g) => g.event === 'records').length;
      if (n >= 1) delivered();
      return n >= 2;
    });
    await initial;
    await a.p.call('POST', '/api/session/events', { events: [event(a.id, a.seq + 1)] });
    const got = await pending;
    expect(got[0].data.records.map((r: any) => r.type)).toEqual(['session_start', 'step_start', 'consent', 'step_end', 'sequence_assigned']);
    expect(got[1].data.records.map((r: any) => r.seq)).toEqual([a.seq + 1]);
  });
  it('sends each record of the live mirror once, also when a notice of records already read arrives late (another process)', async () => {
    const e = await loggedIn();
    const a = await startParticipant();
    const res = await fetch(`${server.url}/api/admin/sessions/${a.id}/live`, { headers: { cookie: e.cookie } });
    let delivered!: (records: any[]) => void;
    const initial = new Promise<any[]>((resolve) => (delivered = resolve));
    const pending = readSse(res, (got) => {
      const batches = got.filter((g) => g.event === 'records');
      if (batches.length >= 1) delivered(batches[0].data.records);
      return batches.length >= 2;
    });
    const read = await initial;
    // A late notice (as PostgreSQL's LISTEN/NOTIFY can bring after the mirror read the log): records already sent.
    server.nonolab.service.feed.emit('appended', a.id, read.slice(0, 2));
    await a.p.call('POST', '/api/session/events', { events: [event(a.id, a.seq + 1)] });
    const got = await pending;
    expect(got[0].data.records).toEqual(read);
    expect(got[1].data.records.map((r: any) => r.seq)).toEqual([a.seq + 1]);
    expect(got).toHaveLength(2);
  });
});

describe('a study that was running before the dashboard opened', () => {
  it('builds every session`s summary from the logs, in slices, with batches arriving meanwhile', async () => {
    const other = await startTestServer({ store: kind });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 250; i++) ids.push((await other.nonolab.service.startSession({ mode: 'general' })).state.session_id);
      const e = new Experimenter(other.url);
      expect((await e.login()).status).toBe(200);
      const listing = e.call('GET', '/api/admin/sessions');
      const late = await startParticipantOn(other.url);
      const sessions = (await listing).json.sessions as { session_id: string; steps: unknown[] }[];
      const listed = new Set(sessions.map((s) => s.session_id));
      for (const id of ids) expect(listed.has(id)).toBe(true);
      expect(listed.size - ids.length).toBeLessThanOrEqual(1); // the late start, if it landed before the answer
      expect(sessions.every((s) => s.steps.length <= 1)).toBe(true);
      const again = (await e.call('GET', '/api/admin/sessions')).json.sessions as { session_id: string }[];
      expect(new Set(again.map((s) => s.session_id))).toEqual(new Set([...ids, late]));
    } finally {
      await other.close();
    }
  });
});

async function startParticipantOn(base: string): Promise<string> {
  const p = new Participant(base);
  const res = await p.call('POST', '/api/sessions', { mode: 'general' });
  return res.json.session_id;
}

describe('pool and actions', () => {
  it('flags leave a session out of the balance; withdrawal leaves nothing and frees the sequence', async () => {
    const e = await loggedIn();
    const a = await startParticipant();
    const before = (await e.call('GET', '/api/admin/pool')).json;
    const seqA = before.sequences.find((s: any) => s.session_id === a.id);
    expect(seqA.status).toBe('leased');
    expect((await e.call('POST', `/api/admin/sessions/${a.id}/flag`, { flag: 'nonsense' })).status).toBe(400);
    expect((await e.call('POST', `/api/admin/sessions/${a.id}/flag`, { flag: 'pilot' })).json.flag).toBe('pilot');
    const flagged = (await e.call('GET', '/api/admin/pool')).json;
    expect(flagged.balance.flagged).toBe(before.balance.flagged + 1);
    for (const p of seqA.puzzle_ids) expect(flagged.balance.per_puzzle[p]).toBe(before.balance.per_puzzle[p] - 1);
    expect((await e.call('GET', `/api/admin/sessions/${a.id}`)).json.summary.flag).toBe('pilot');
    // The mark is in the session's log too, where the analysis reads it.
    expect(parseSessionNdjson(await logText(a.id), `${a.id}.ndjson`).marks).toEqual(['pilot']);
    expect(await server.nonolab.store.marksOf(a.id)).toMatchObject({ flag: 'pilot' });

    expect((await e.call('POST', `/api/admin/sessions/${a.id}/withdraw`, { confirm: 'no' })).status).toBe(400);
    const held = (await server.nonolab.log.read(a.id)).length;
    const withdrawn = await e.call('POST', `/api/admin/sessions/${a.id}/withdraw`, { confirm: a.id });
    expect(withdrawn.status).toBe(200);
    // What was deleted, for the dashboard's confirmation (issue 32): the log's records, the row, the marks; the sequence freed.
    expect(withdrawn.json).toEqual({ withdrawn: true, session_id: a.id, deleted: { records: held, marks: true, panel_ids: false }, sequence_freed: { id: seqA.id, round: seqA.round } });
    expect(existsSync(join(server.dataDir, 'sessions', `${a.id}.ndjson`))).toBe(false);
    expect(await server.nonolab.log.read(a.id)).toEqual([]);
    const after = (await e.call('GET', '/api/admin/pool')).json;
    expect(after.sequences.find((s: any) => s.id === seqA.id)).toMatchObject({ status: 'free', session_id: null });
    expect((await e.call('GET', '/api/admin/sessions')).json.sessions.some((s: any) => s.session_id === a.id)).toBe(false);
    expect(await server.nonolab.store.marksOf(a.id)).toBeUndefined();
    if (server.databaseUrl) expect(await rowsMentioning(server.databaseUrl, a.id)).toEqual([]);
    expect((await e.call('GET', `/api/admin/sessions/${a.id}`)).status).toBe(404);
  });

  it('ends an inactive session (returning its lease before its first puzzle) and extends it back', async () => {
    const e = await loggedIn();
    const a = await startParticipant();
    const ended = await e.call('POST', `/api/admin/sessions/${a.id}/end`, {});
    expect(ended.json).toMatchObject({ status: 'abandoned', lease_returned: true });
    expect((await e.call('POST', `/api/admin/sessions/${a.id}/end`, {})).status).toBe(409);
    expect((await e.call('GET', `/api/admin/sessions/${a.id}`)).json.summary).toMatchObject({ status: 'abandoned' });
    // Its sequence went back to the pool: it cannot be brought back.
    expect((await e.call('POST', `/api/admin/sessions/${a.id}/extend`, { minutes: 10 })).status).toBe(409);

    const b = await startParticipant();
    const onPuzzle = { phase: 'puzzles', puzzle_id: b.sequence[0], position: 1 };
    const seq = await playSteps(b.p, { session_id: b.id, sequence: b.sequence }, defaultConfig(), 6, { from: 1, seq: b.seq }); // finished the first puzzle
    expect((await e.call('POST', `/api/admin/sessions/${b.id}/end`, {})).json.lease_returned).toBe(false);
    expect((await e.call('GET', `/api/admin/sessions/${b.id}`)).json.summary).toMatchObject({ status: 'abandoned' });
    // The participant comes back: the session is live again, and no longer counts as ended by hand.
    expect((await b.p.call('POST', '/api/session/events', { events: [event(b.id, seq + 1, { ...onPuzzle, step: 6, position: 2, puzzle_id: b.sequence[1] })] })).status).toBe(200);
    expect((await e.call('GET', `/api/admin/sessions/${b.id}`)).json.summary).toMatchObject({ status: 'active', ended_at: null });
    expect((await e.call('POST', `/api/admin/sessions/${b.id}/end`, {})).status).toBe(200);
    const extended = await e.call('POST', `/api/admin/sessions/${b.id}/extend`, { minutes: 15 });
    expect(extended.json.status).toBe('active');
    expect((await e.call('GET', `/api/admin/sessions/${b.id}`)).json.summary).toMatchObject({ status: 'active', ended_at: null });
  });
});

describe('overview and exports', () => {
  it('shows the config in force with solutions, its hash and counts', async () => {
    const e = await loggedIn();
    const o = (await e.call('GET', '/api/admin/overview')).json;
    expect(o.study.config_hash).toMatch(/^[0-9a-f]{16}$/);
    expect(o.config.puzzles[0].solution.length).toBe(o.config.puzzles[0].height);
    expect(Object.values(o.counts.by_status).reduce((x: number, y) => x + (y as number), 0)).toBeGreaterThan(0);
  });

  it('streams the event CSV, leaving flagged sessions out unless asked', async () => {
    const e = await loggedIn();
    const a = await startParticipant();
    const b = await startParticipant();
    await e.call('POST', `/api/admin/sessions/${b.id}/flag`, { flag: 'test' });
    const list = (await e.call('GET', '/api/admin/exports')).json.exports.map((x: any) => x.id);
    expect(list).toEqual(expect.arrayContaining(['events', 'raw', 'psychds']));
    const res = await fetch(`${server.url}/api/admin/exports/events`, { headers: { cookie: e.cookie } });
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename=".*events\.csv"/);
    const csv = await res.text();
    expect(csv.split('\n')[0]).toMatch(/^session_id,/);
    expect(csv).toContain(a.id);
    expect(csv).not.toContain(b.id);
    const all = await (await fetch(`${server.url}/api/admin/exports/events?include_flagged=1`, { headers: { cookie: e.cookie } })).text();
    expect(all).toContain(b.id);
    const zip = await fetch(`${server.url}/api/admin/exports/raw`, { headers: { cookie: e.cookie } });
    const bytes = new Uint8Array(await zip.arrayBuffer());
    expect([bytes[0], bytes[1]]).toEqual([0x50, 0x4b]); // PK
  });

  it('exports one session alone with ?session=ID (flagged or not), and names an unknown one', async () => {
    const e = await loggedIn();
    const a = await startParticipant();
    const b = await startParticipant();
    await e.call('POST', `/api/admin/sessions/${b.id}/flag`, { flag: 'pilot' });
    const list = (await e.call('GET', '/api/admin/exports')).json.exports.map((x: any) => x.id);
    expect(list).toContain('trajectories');
    for (const id of [a.id, b.id]) {
      const res = await fetch(`${server.url}/api/admin/exports/events?session=${id}`, { headers: { cookie: e.cookie } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toContain(`-${id}-`);
      const rows = (await res.text()).trim().split('\n').slice(1);
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows) expect(r.startsWith(`${id},`)).toBe(true);
    }
    const traj = await fetch(`${server.url}/api/admin/exports/trajectories?session=${a.id}`, { headers: { cookie: e.cookie } });
    expect(traj.status).toBe(200);
    expect((await traj.text()).split('\n')[0]).toMatch(/^participant_id,puzzle_id,kind,/);
    const unknown = await fetch(`${server.url}/api/admin/exports/events?session=never-was`, { headers: { cookie: e.cookie } });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toContain("no session 'never-was'");
  });
});

// Last: it uses up this address's failed-login allowance, after which even the right password waits.
describe('failed logins', () => {
  it('refuses a wrong password, a non-JSON body, and rate-limits failed logins', async () => {
    const e = new Experimenter(server.url);
    expect((await e.login('wrong')).status).toBe(401);
    const form = await fetch(`${server.url}/api/admin/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'password=x' });
    expect(form.status).toBe(415);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await e.login(`wrong${i}`)).status);
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.filter((s) => s === 401).length).toBe(9); // 10 failures allowed per window, one used above
  });
});
});
