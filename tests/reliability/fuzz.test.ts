// Hostile input: thousands of malformed, truncated, oversized, wrong-typed and out-of-range requests to every route of
// the real server process; every answer must be a 4xx with a JSON error, the server must stay up, and the burst alone
// must leave the data directory byte for byte as it was, and the database (on PostgreSQL) row for row.
import { afterEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import pg from 'pg';
import { createRng, type Rng } from '../../shared/random.ts';
import { HttpClient } from '../support/bots.ts';
import { defaultConfig, startServer, type RunningServer } from '../support/server.ts';
import { hashTree } from './verify.ts';
import { event } from '../support/testServer.ts';
import { STORES, databaseFor } from '../support/postgres.ts';

const REQUESTS = Number(process.env.NONOLAB_FUZZ_REQUESTS ?? 3000);
const SEED = Number(process.env.NONOLAB_FUZZ_SEED ?? 4);
const PASSWORD = 'fuzz-admin-password-1';

let server: RunningServer | null = null;
afterEach(async () => {
  await server?.stop();
  if (server) rmSync(server.dataDir, { recursive: true, force: true });
  server = null;
});

/**
 * A PostgreSQL database's content, per table: the SHA-256 of its rows (as text, sorted), and every sequence's last
 * value (a failed insert would use one up).
 */
async function hashDatabase(url: string): Promise<Record<string, string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const out: Record<string, string> = {};
    const tables = (await client.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1")).rows.map((r: { table_name: string }) => r.table_name);
    for (const t of tables) {
      const rows = (await client.query(`SELECT t::text AS row FROM "${t}" t ORDER BY 1`)).rows as { row: string }[];
      const h = createHash('sha256');
      for (const r of rows) h.update(r.row).update('\n');
      out[t] = `${rows.length} ${h.digest('hex')}`;
    }
    for (const r of (await client.query("SELECT sequencename, last_value FROM pg_sequences WHERE schemaname = 'public'")).rows as { sequencename: string; last_value: string | null }[])
      out[`sequence ${r.sequencename}`] = String(r.last_value);
    return out;
  } finally {
    await client.end();
  }
}

interface Hostile {
  method: string;
  path: string;
  /** A string is sent as is (content-type application/json unless `type` says otherwise). */
  body?: string;
  type?: string;
  cookie?: string;
  what: string;
}

const NASTY_STRINGS = [
  '',
  ' ',
  '../../etc/passwd',
  '..%2F..%2Fetc%2Fpasswd',
  '/etc/passwd',
  'C:\\Windows\\system32',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '=HYPERLINK("http://evil.example","click")',
  '=cmd|/C calc!A0',
  '+1+1',
  '@SUM(1)',
  "'; DROP TABLE sessions; --",
  '\u0000\u0001\u0002\u001b[31m',
  '\u202e\u200b\ufeff',
  '😀🧩',
  'é'.repeat(70),
  'x'.repeat(65),
  'x'.repeat(5000),
  '%00',
  '\n\r\t',
  '${process.exit(1)}',
  '__proto__',
  'constructor',
];
const NASTY_NUMBERS: unknown[] = [-1, 0, 1.5, -0.5, 1e308, -1e308, 2 ** 53 + 2, '1', null, true, [], {}, 'NaN'];

function pick<T>(rng: Rng, xs: readonly T[]): T {
  return xs[rng.int(xs.length)];
}

const validEvent = (sessionId: string, seq: number): Record<string, any> => event(sessionId, seq);

/** An event that zod must refuse (so the whole batch is refused). */
function badEvent(rng: Rng, sessionId: string, seq: number): Record<string, any> {
  const e = validEvent(sessionId, seq);
  const field = pick(rng, ['session_id', 'seq', 'step', 'phase', 'puzzle_id', 'position', 't_mono', 't_wall', 'source', 'type', 'payload', 'missing', 'survey', 'move']);
  switch (field) {
    case 'session_id':
      e.session_id = pick(rng, ['../../etc/passwd', '', 'x'.repeat(65), '<script>', '\u0000', 42, null]);
      break;
    case 'seq':
      e.seq = pick(rng, [0, -1, 1.5, '1', null, 1e400, 'NaN', [], {}]);
      break;
    case 'step':
      e.step = pick(rng, [-1, 0.5, '0', null, {}]);
      break;
    case 'phase':
      e.phase = pick(rng, ['../x', '<script>', '', 'x'.repeat(65), 3, '=HYPERLINK("x")']);
      break;
    case 'puzzle_id':
      e.puzzle_id = pick(rng, ['../../etc', '', 17, '\u202e']);
      break;
    case 'position':
      e.position = pick(rng, [0, -3, 1.5, '1']);
      break;
    case 't_mono':
    case 't_wall':
      e[field] = pick(rng, [-1, '12', null, {}]);
      break;
    case 'source':
      e.source = pick(rng, ['telepathy', '', 7, null]);
      break;
    case 'type':
      e.type = pick(rng, ['drop_table', '', '__proto__', 5]);
      break;
    case 'payload':
      e.payload = pick(rng, [null, 'visible', { state: 'invisible' }, [], { state: '<script>' }]);
      break;
    case 'missing':
      delete e[pick(rng, ['session_id', 'seq', 'step', 'phase', 'type', 'payload', 'source', 't_mono'])];
      break;
    case 'survey':
      e.type = 'survey_submit';
      e.payload = { survey_id: 'pre_survey', answers: { academic_program: 'x'.repeat(20_001), note: '=HYPERLINK("http://evil","x") <script>' } };
      break;
    case 'move':
      e.type = 'move';
      e.payload = { move: pick(rng, [{ type: 'fill', row: -1, col: 0 }, { type: 'fill', row: 100, col: 0 }, { type: 'stroke', state: 'filled', cells: [] }, { type: 'teleport' }, { type: 'fill', row: '1', col: 1 }]) };
      break;
  }
  return e;
}

function truncate(rng: Rng, text: string): string {
  return text.slice(0, Math.max(1, rng.int(text.length)));
}

interface Context {
  a: { id: string; cookie: string; acked: number; sequence: string[] };
  b: { id: string; cookie: string };
  admin: string | null;
  adminRoutes: boolean;
  otherPuzzle: string;
}

function hostile(rng: Rng, ctx: Context): Hostile {
  const { a, b } = ctx;
  const tokenChoice = (): { cookie?: string; label: string } =>
    pick(rng, [
      { cookie: undefined, label: 'no token' },
      { cookie: 'nonolab_token=', label: 'empty token' },
      { cookie: `nonolab_token=${encodeURIComponent(pick(rng, NASTY_STRINGS)).slice(0, 3000)}`, label: 'forged token' },
      { cookie: `nonolab_token=${'A'.repeat(32)}`, label: 'random token' },
    ]);
  const kind = rng.int(ctx.adminRoutes ? 14 : 11);
  switch (kind) {
    case 0: {
      // Session starts that must be refused.
      const body = pick(rng, [
        JSON.stringify({ mode: 'kiosk' }),
        JSON.stringify({ mode: 'kiosk', label: pick(rng, ['<script>alert(1)</script>', '', ' ', 'x'.repeat(101)]) }),
        JSON.stringify({ mode: 'panel' }),
        JSON.stringify({ mode: 'panel', panel: { provider: 'prolific', participant_id: pick(rng, ['../../etc/passwd', '', '<b>', 'x'.repeat(101), '=HYPERLINK("x")']) } }),
        JSON.stringify({ mode: 'panel', panel: { provider: 'mturk', participant_id: 'P1' } }),
        JSON.stringify({ mode: pick(rng, ['admin', '', 3, null]) }),
        '[]',
        '"general"',
        '{"mode": "general"',
        truncate(rng, JSON.stringify({ mode: 'panel', panel: { provider: 'sona', participant_id: 'abc' } })),
        '{"mode":"kiosk","x":' + '['.repeat(5000) + ']'.repeat(5000) + '}',
      ]);
      return { method: 'POST', path: '/api/sessions', body, what: `start ${body.slice(0, 60)}` };
    }
    case 1: {
      const t = tokenChoice();
      return { method: 'GET', path: '/api/session', cookie: t.cookie, what: `resume with ${t.label}` };
    }
    case 2: {
      // Event batches with A's own token that zod must refuse as a whole (one bad event spoils the batch).
      const n = 1 + rng.int(8);
      const events = Array.from({ length: n }, (_, i) => (i === n - 1 || rng.int(2) === 0 ? badEvent(rng, a.id, a.acked + 1 + i) : validEvent(a.id, a.acked + 1 + i)));
      for (const e of events) if (rng.int(4) === 0) e.payload = { ...e.payload, note: pick(rng, NASTY_STRINGS) };
      rng.int(2) === 0 && events.reverse();
      return { method: 'POST', path: '/api/session/events', body: JSON.stringify({ events }), cookie: a.cookie, what: 'bad event batch' };
    }
    case 3: {
      const variant = rng.int(7);
      const body =
        variant === 0
          ? JSON.stringify({ events: [] })
          : variant === 1
            ? JSON.stringify({ events: Array.from({ length: 501 }, (_, i) => validEvent(a.id, a.acked + 1 + i)) })
            : variant === 2
              ? JSON.stringify({ events: [validEvent(a.id, a.acked + 1)], padding: 'x'.repeat(1_100_000) })
              : variant === 3
                ? truncate(rng, JSON.stringify({ events: [validEvent(a.id, a.acked + 1)] }))
                : variant === 4
                  ? JSON.stringify(pick(rng, [{ events: 'all' }, { events: null }, {}, [], { events: [1, 2, 3] }, { events: {} }]))
                  : variant === 5
                    ? '\u0000\u0001garbage'
                    : JSON.stringify({ events: [{ ...validEvent(a.id, a.acked + 1), seq: pick(rng, NASTY_NUMBERS) }] });
      return { method: 'POST', path: '/api/session/events', body, cookie: a.cookie, what: `events variant ${variant}` };
    }
    case 4: {
      // Another session's token, or events naming another session.
      const which = rng.int(3);
      if (which === 0) return { method: 'POST', path: '/api/session/events', body: JSON.stringify({ events: [validEvent(a.id, a.acked + 1)] }), cookie: b.cookie, what: "B's token, A's events" };
      if (which === 1) return { method: 'POST', path: '/api/session/events', body: JSON.stringify({ events: [validEvent(pick(rng, ['sAAAA', '..', 'x'.repeat(64)]), 1)] }), cookie: a.cookie, what: 'events naming a session that is not mine' };
      const t = tokenChoice();
      return { method: 'POST', path: '/api/session/events', body: JSON.stringify({ events: [validEvent(a.id, a.acked + 1)] }), cookie: t.cookie, what: `events with ${t.label}` };
    }
    case 5:
    case 6: {
      const route = pick(rng, ['check', 'hint']);
      const body = pick(rng, [
        JSON.stringify({ puzzle_id: ctx.otherPuzzle, position: 1, rows: ['#'.repeat(10)] }),
        JSON.stringify({ puzzle_id: pick(rng, ['../../etc/passwd', 'nope', '<script>', '\u0000']), position: 1, rows: [] }),
        JSON.stringify({ puzzle_id: a.sequence[0], position: 1, rows: [pick(rng, ['<script>', '=HYPERLINK("x")', 'abc', '#'.repeat(101)])] }),
        JSON.stringify({ puzzle_id: a.sequence[0], position: pick(rng, [0, -1, 1.5, '1']), rows: ['#'] }),
        JSON.stringify({ puzzle_id: a.sequence[0], position: 1, rows: Array.from({ length: 101 }, () => '#') }),
        JSON.stringify({ puzzle_id: a.sequence[0], position: 1, rows: 'all' }),
        JSON.stringify({ puzzle_id: 'x'.repeat(65), position: 1, rows: ['#'] }),
        truncate(rng, JSON.stringify({ puzzle_id: a.sequence[0], position: 1, rows: ['##..'] })),
      ]);
      // (B's token only with bodies that are invalid for every session: the other puzzle may be one of B's.)
      const t = rng.int(5) === 0 ? tokenChoice() : body.includes(ctx.otherPuzzle) ? { cookie: a.cookie, label: "A's token" } : { cookie: pick(rng, [a.cookie, b.cookie]), label: 'a token' };
      return { method: 'POST', path: `/api/session/${route}`, body, cookie: t.cookie, what: `${route} ${body.slice(0, 60)} with ${t.label}` };
    }
    case 7: {
      const body = pick(rng, [JSON.stringify({ last_seq: a.acked + 1 + rng.int(100) }), JSON.stringify({ last_seq: pick(rng, [-1, 1.5, '3', null]) }), '{}', JSON.stringify({ last_seq: 0 })]);
      return { method: 'POST', path: '/api/session/complete', body, cookie: a.cookie, what: `complete ${body}` };
    }
    case 8: {
      const t = tokenChoice();
      return { method: 'POST', path: '/api/session/withdraw', body: '{}', cookie: t.cookie, what: `withdraw with ${t.label}` };
    }
    case 9: {
      const path = pick(rng, [
        '/api/../../etc/passwd',
        '/api/session/../../../etc/passwd',
        '/api/%2e%2e/%2e%2e/etc/passwd',
        `/api/sessions/${encodeURIComponent(pick(rng, NASTY_STRINGS.filter((x) => x.trim().length > 0)))}`,
        '/api/session/events/../withdraw',
        '/api/nope',
        '/api/session/state',
        '/api/session/%00',
        `/api/${'a/'.repeat(200)}`,
      ]);
      return { method: pick(rng, ['GET', 'POST', 'PUT', 'DELETE', 'PATCH']), path, body: '{}', cookie: a.cookie, what: `unknown route ${path.slice(0, 60)}` };
    }
    case 10: {
      // Wrong methods and content types on real routes.
      const path = pick(rng, ['/api/sessions', '/api/session', '/api/session/events', '/api/session/check', '/api/session/complete', '/api/session/withdraw']);
      const method = pick(rng, ['PUT', 'DELETE', 'PATCH']);
      return { method, path, body: '{}', cookie: a.cookie, what: `${method} ${path}` };
    }
    case 11: {
      // Experimenter routes without a (valid) login.
      const path = pick(rng, ['/api/admin/me', '/api/admin/overview', '/api/admin/sessions', `/api/admin/sessions/${a.id}`, `/api/admin/sessions/${a.id}/events`, '/api/admin/pool', '/api/admin/exports', '/api/admin/exports/events', '/api/admin/nope', '/api/admin/../admin/sessions']);
      const post = pick(rng, [`/api/admin/sessions/${a.id}/withdraw`, `/api/admin/sessions/${a.id}/flag`, `/api/admin/sessions/${a.id}/extend`, `/api/admin/sessions/${a.id}/end`]);
      const cookie = pick(rng, [undefined, 'nonolab_admin=forged', `nonolab_admin=${'z'.repeat(43)}`, a.cookie]);
      if (rng.int(2) === 0) return { method: 'GET', path, cookie, what: `admin ${path} without login` };
      return { method: 'POST', path: post, body: JSON.stringify({ confirm: a.id, flag: 'pilot', minutes: 5 }), cookie, what: `admin POST ${post} without login` };
    }
    case 12: {
      const body = pick(rng, [JSON.stringify({ password: pick(rng, ['wrong', '', 'x'.repeat(5000), '<script>', PASSWORD + ' ']) }), '{}', JSON.stringify({ password: 7 }), truncate(rng, JSON.stringify({ password: PASSWORD }))]);
      return { method: 'POST', path: '/api/admin/login', body, what: `admin login ${body.slice(0, 40)}`, type: rng.int(8) === 0 ? 'text/plain' : undefined };
    }
    default: {
      // Logged in, but the ids, bodies or names are hostile.
      const id = pick(rng, ['..%2F..%2Fetc%2Fpasswd', '%2e%2e', encodeURIComponent('<script>'), 'sDOESNOTEXIST', encodeURIComponent('=HYPERLINK("x")'), '%00', encodeURIComponent('😀'), 'x'.repeat(300)]);
      const variant = rng.int(6);
      if (variant === 0) return { method: 'GET', path: `/api/admin/sessions/${id}`, cookie: ctx.admin!, what: `admin session ${id}` };
      if (variant === 1) return { method: 'GET', path: `/api/admin/sessions/${id}/events`, cookie: ctx.admin!, what: `admin events ${id}` };
      if (variant === 2) return { method: 'GET', path: `/api/admin/exports/${pick(rng, ['..%2F..%2Fetc%2Fpasswd', 'nope', '%00', 'events.csv'])}`, cookie: ctx.admin!, what: 'admin export name' };
      if (variant === 3)
        return {
          method: 'POST',
          path: `/api/admin/sessions/${a.id}/withdraw`,
          body: JSON.stringify(pick(rng, [{ confirm: 'no' }, {}, { confirm: b.id }, { confirm: '../../' + a.id }])),
          cookie: ctx.admin!,
          what: 'admin withdraw without the right confirmation',
        };
      if (variant === 4)
        return {
          method: 'POST',
          path: `/api/admin/sessions/${pick(rng, [a.id, id])}/${pick(rng, ['flag', 'extend'])}`,
          body: JSON.stringify(pick(rng, [{ flag: '<script>' }, { minutes: -5 }, { minutes: 'x' }, { flag: 7 }, {}])),
          cookie: ctx.admin!,
          what: 'admin flag/extend with a bad body',
        };
      return { method: 'POST', path: `/api/admin/sessions/${id}/end`, body: '{}', cookie: ctx.admin!, what: `admin end ${id}` };
    }
  }
}

describe.each(STORES)('hostile input on %s', (store) => {
  it(`answers ${REQUESTS} hostile requests with 4xx JSON errors, stays up and leaves the data directory untouched`, async () => {
    const databaseUrl = await databaseFor(store);
    server = await startServer({ env: { NONOLAB_ADMIN_PASSWORD: PASSWORD, NONOLAB_START_LIMIT: '100000', ...(databaseUrl ? { NONOLAB_DATABASE_URL: databaseUrl } : {}) } });
    const http = new HttpClient(server.url, { maxSockets: 32 });
    const config = defaultConfig();

    // A legitimate state first: two participants with some events, and an experimenter login if the routes exist.
    const startA = await http.call('POST', '/api/sessions', {}, '');
    const startB = await http.call('POST', '/api/sessions', {}, '');
    const a = { id: startA.json.session_id as string, cookie: startA.setCookie!, acked: 0, sequence: startA.json.sequence as string[] };
    const b = { id: startB.json.session_id as string, cookie: startB.setCookie! };
    const sent = await http.call('POST', '/api/session/events', { events: [1, 2, 3].map((s) => validEvent(a.id, s)) }, a.cookie);
    expect(sent.json.acked_seq).toBe(3);
    a.acked = 3;
    const login = await http.call('POST', '/api/admin/login', { password: PASSWORD }, '');
    const adminRoutes = login.status === 200;
    const ctx: Context = {
      a,
      b,
      admin: adminRoutes ? login.setCookie! : null,
      adminRoutes,
      otherPuzzle: config.puzzles.map((p) => p.id).find((id) => !a.sequence.includes(id))!,
    };
    const before = hashTree(server.dataDir);
    const beforeDb = databaseUrl ? await hashDatabase(databaseUrl) : null;

    const rng = createRng(SEED);
    const requests = Array.from({ length: REQUESTS }, () => hostile(rng, ctx));
    const bad: string[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < requests.length) {
          const h = requests[next++];
          let answer: Awaited<ReturnType<HttpClient['call']>>;
          try {
            answer = await http.call(h.method, h.path, h.body, h.cookie ?? '', h.type);
          } catch (err) {
            bad.push(`${h.what}: no answer (${(err as Error).message})`);
            continue;
          }
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          const text = typeof answer.json === 'string' ? answer.json : JSON.stringify(answer.json);
          if (answer.status < 400 || answer.status >= 500) bad.push(`${h.what}: status ${answer.status} ${text.slice(0, 120)}`);
          else if (typeof answer.json !== 'object' || typeof answer.json?.error !== 'string' || answer.json.error.length === 0) bad.push(`${h.what}: ${answer.status} without a JSON error: ${text.slice(0, 120)}`);
          else if (/\bat [\w.<>]+ \(|node_modules|\.ts:\d+/.test(text)) bad.push(`${h.what}: the error shows a stack trace: ${text.slice(0, 200)}`);
        }
      }),
    );
    expect(bad.slice(0, 20)).toEqual([]);
    // Every family of error was exercised.
    for (const s of [400, 401, 403, 404, 409, 413]) expect(statuses.get(s) ?? 0, `status ${s}`).toBeGreaterThan(0);
    if (adminRoutes) for (const s of [415, 429]) expect(statuses.get(s) ?? 0, `status ${s}`).toBeGreaterThan(0);

    // Still up, and still serving the legitimate participant where they were.
    expect((await http.call('GET', '/api/health', undefined, '')).status).toBe(200);
    const resumed = await http.call('GET', '/api/session', undefined, a.cookie);
    expect(resumed.json.acked_seq).toBe(3);
    expect(server.process.exitCode).toBeNull();
    // Byte for byte: every file but SQLite's -shm, the shared-memory WAL index, whose read marks change on every read
    // transaction (it holds no data and SQLite rebuilds it from the WAL). The database and its WAL must not change.
    const data = (tree: Map<string, string>) => [...tree.entries()].filter(([path]) => !path.endsWith('-shm')).sort();
    const after = hashTree(server.dataDir);
    expect(data(after)).toEqual(data(before));
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    if (databaseUrl) {
      // Everything of the study is in the database (the login too): row for row as it was. The
      // one table the burst may change is the login limiter's count of failures (shared by every process): it did.
      const afterDb = await hashDatabase(databaseUrl);
      const { admin_login_failures: failures, ...rest } = afterDb;
      const { admin_login_failures: noFailures, ...restBefore } = beforeDb!;
      expect(rest).toEqual(restBefore);
      expect(failures).not.toBe(noFailures);
      expect(Number(afterDb.events.split(' ')[0])).toBeGreaterThan(0);
      expect(Number(afterDb.admin_sessions.split(' ')[0])).toBe(1);
      // The data directory holds only the registry of studies and accounts (store/studies.ts: a SQLite file beside any
      // store), unchanged byte for byte by the burst as checked above.
      expect([...before.keys()].filter((path) => !/^studies\.sqlite(-wal|-shm)?$/.test(path))).toEqual([]);
    } else expect(data(before).map(([path]) => path)).toEqual(expect.arrayContaining(['nonolab.sqlite', 'nonolab.sqlite-wal', `sessions/${a.id}.ndjson`, `sessions/${b.id}.ndjson`]));
    http.close();
  });
});
