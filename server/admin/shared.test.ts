// Two server instances on one PostgreSQL database (two machines behind a load balancer, or two workers): the
// experimenter's password, logins and marks live in the database, so a login made at one is good at the other, a flag
// set at one is seen at the other, and a password changed at one ends the old one (and its logins) at both.
import { afterEach, describe, expect, it } from 'vitest';
import { Participant, playSteps, startTestServer, type TestServer } from '../../tests/support/testServer.ts';
import { defaultConfig, startServer, type RunningServer } from '../../tests/support/server.ts';
import { databaseFor } from '../../tests/support/postgres.ts';

const PASSWORD = 'one password for every machine';

const servers: TestServer[] = [];
const processes: RunningServer[] = [];
const savedPassword = process.env.NONOLAB_ADMIN_PASSWORD;
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  for (const p of processes.splice(0)) await p.stop();
  process.env.NONOLAB_ADMIN_PASSWORD = savedPassword;
});

/** An instance on `databaseUrl` with its own (empty) data directory, as on another machine. */
async function instance(databaseUrl: string, password = PASSWORD): Promise<TestServer> {
  process.env.NONOLAB_ADMIN_PASSWORD = password;
  const s = await startTestServer({ databaseUrl });
  servers.push(s);
  return s;
}

/** An open SSE stream: the names of the events read so far, and a promise that resolves when the server ends it. */
async function openStream(url: string, cookie: string): Promise<{ events: string[]; ended: Promise<void> }> {
  const res = await fetch(url, { headers: { cookie } });
  expect(res.status).toBe(200);
  const events: string[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const ended = (async () => {
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const ev = /^event: (.*)$/m.exec(buffer.slice(0, cut))?.[1];
        if (ev) events.push(ev);
        buffer = buffer.slice(cut + 2);
      }
    }
  })();
  return { events, ended };
}

const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((r) => setTimeout(r, 10));
};

/** Two instances on one fresh database. */
async function pair(): Promise<[TestServer, TestServer, string]> {
  const url = (await databaseFor('postgres'))!;
  return [await instance(url), await instance(url), url];
}

/** The experimenter's client for `base` holding `cookie` (a login made anywhere). */
function withCookie(base: string, cookie: string): Participant {
  const p = new Participant(base);
  p.cookie = cookie;
  return p;
}

async function login(base: string, password = PASSWORD): Promise<{ status: number; cookie: string }> {
  const p = new Participant(base);
  const res = await p.call('POST', '/api/admin/login', { password });
  return { status: res.status, cookie: p.cookie };
}

/** A participant at `base` who started and consented (the sequence is leased at consent), and played `steps` steps. */
async function consented(base: string, steps = 1): Promise<string> {
  const p = new Participant(base);
  const s = (await p.call('POST', '/api/sessions', {})).json;
  await playSteps(p, s, defaultConfig(), steps);
  return s.session_id as string;
}

describe('two instances on one PostgreSQL database share the experimenter`s state', () => {
  it('a login made at one instance is good at the other; a logout at either ends it at both', async () => {
    const [a, b] = await pair();
    const { status, cookie } = await login(a.url);
    expect(status).toBe(200);
    expect(cookie).toMatch(/^nonolab_admin=/);
    const atA = withCookie(a.url, cookie);
    const atB = withCookie(b.url, cookie);
    const me = await atB.call('GET', '/api/admin/me');
    expect(me.status).toBe(200);
    expect(me.json.expires_at).toBe((await atA.call('GET', '/api/admin/me')).json.expires_at);
    expect((await atB.call('GET', '/api/admin/sessions')).status).toBe(200);

    // A live stream opened at A with this login ends once the login is ended at B (at its next send).
    const stream = await openStream(`${a.url}/api/admin/live`, cookie);
    await until(() => stream.events.includes('snapshot'));
    expect((await atB.call('POST', '/api/admin/logout', {})).status).toBe(200);
    expect((await withCookie(a.url, cookie).call('GET', '/api/admin/me')).status).toBe(401);
    expect((await withCookie(b.url, cookie).call('GET', '/api/admin/me')).status).toBe(401);
    await consented(b.url); // a change A's dashboard hears of (through the database): the stream's next send
    await stream.ended;
    expect(stream.events).toEqual(['snapshot']);
  });

  it('a flag, an end and an extension made at one instance are what the other shows, counts and exports', async () => {
    const [a, b] = await pair();
    const cookie = (await login(a.url)).cookie;
    const atA = withCookie(a.url, cookie);
    const atB = withCookie(b.url, cookie);
    const pilot = await consented(a.url);
    const kept = await consented(b.url, 6); // past its first puzzle: an end by hand keeps its lease
    // B's dashboard was open before the flag (its summaries are built and kept current).
    expect((await atB.call('GET', '/api/admin/sessions')).json.sessions.map((s: { session_id: string }) => s.session_id).sort()).toEqual([pilot, kept].sort());

    expect((await atA.call('POST', `/api/admin/sessions/${pilot}/flag`, { flag: 'pilot' })).json).toMatchObject({ flag: 'pilot', logged: true });
    expect((await atB.call('GET', `/api/admin/sessions/${pilot}`)).json.summary.flag).toBe('pilot');
    const pool = (await atB.call('GET', '/api/admin/pool')).json;
    expect(pool.balance.flagged).toBe(1);
    expect(pool.sequences.find((s: { session_id: string | null }) => s.session_id === pilot).flag).toBe('pilot');
    expect((await atB.call('GET', '/api/admin/overview')).json.counts.flagged).toBe(1);
    expect((await atB.call('GET', `/api/admin/lookup?q=${pilot}`)).json.matches[0].flag).toBe('pilot');
    const csv = await (await fetch(`${b.url}/api/admin/exports/events`, { headers: { cookie } })).text();
    expect(csv).toContain(kept);
    expect(csv).not.toContain(pilot);
    // Cleared at B: gone at A too.
    expect((await atB.call('POST', `/api/admin/sessions/${pilot}/flag`, { flag: null })).status).toBe(200);
    expect((await atA.call('GET', `/api/admin/sessions/${pilot}`)).json.summary.flag).toBeNull();
    expect((await a.nonolab.store.flaggedSessions())).toEqual([]);

    // Ended by hand at B; A shows it ended, and an extension at A is what B shows.
    const ended = await atB.call('POST', `/api/admin/sessions/${kept}/end`, {});
    expect(ended.json.status).toBe('abandoned');
    const atASummary = (await atA.call('GET', `/api/admin/sessions/${kept}`)).json.summary;
    expect(atASummary.status).toBe('abandoned');
    expect(typeof atASummary.ended_at).toBe('number');
    expect((await atA.call('POST', `/api/admin/sessions/${kept}/extend`, { minutes: 30 })).status).toBe(200);
    expect((await atB.call('GET', `/api/admin/sessions/${kept}`)).json.summary).toMatchObject({ ended_at: null });

    // A withdrawal at A takes the session's marks with it, at both.
    expect((await atB.call('POST', `/api/admin/sessions/${pilot}/flag`, { flag: 'excluded' })).status).toBe(200);
    expect((await atA.call('POST', `/api/admin/sessions/${pilot}/withdraw`, { confirm: pilot })).status).toBe(200);
    expect(await b.nonolab.store.marksOf(pilot)).toBeUndefined();
    expect((await atB.call('POST', `/api/admin/sessions/${pilot}/flag`, { flag: 'test' })).status).toBe(404);
  });

  it('a password changed at one instance ends the old password and every login at the other', async () => {
    const [a, b, url] = await pair();
    const before = (await login(b.url)).cookie;
    expect((await withCookie(a.url, before).call('GET', '/api/admin/me')).status).toBe(200);

    // B restarts with a new NONOLAB_ADMIN_PASSWORD (a machine reconfigured); A runs on.
    await b.close();
    servers.splice(servers.indexOf(b), 1);
    const b2 = await instance(url, 'the new password');
    expect((await login(a.url)).status).toBe(401);
    expect((await login(b2.url)).status).toBe(401);
    expect((await withCookie(a.url, before).call('GET', '/api/admin/me')).status).toBe(401);
    const after = await login(a.url, 'the new password');
    expect(after.status).toBe(200);
    expect((await withCookie(b2.url, after.cookie).call('GET', '/api/admin/me')).status).toBe(200);
  });

  it('a generated password is printed by one instance only, and works at every one', async () => {
    const url = (await databaseFor('postgres'))!;
    process.env.NONOLAB_ADMIN_PASSWORD = '';
    const printed: string[] = [];
    const started = await Promise.all([0, 1].map(() => startTestServer({ databaseUrl: url, logger: (m) => printed.push(m) })));
    servers.push(...started);
    const lines = printed.filter((m) => m.includes('experimenter password'));
    expect(lines).toHaveLength(1);
    const password = /: (\S+)\n/.exec(lines[0])![1];
    for (const s of started) expect((await login(s.url, password)).status).toBe(200);
  });

  it('two server processes (npm start, as on two machines) started at once without a password: one prints it, both take its logins and marks', async () => {
    const url = (await databaseFor('postgres'))!;
    const env = { NONOLAB_DATABASE_URL: url, NONOLAB_ADMIN_PASSWORD: '' };
    processes.push(...(await Promise.all([startServer({ env }), startServer({ env })])));
    const [one, two] = processes;
    const printed = processes.flatMap((p) => [...p.output().matchAll(/experimenter password \(shown only this once; it is stored hashed\): (\S+)/g)].map((m) => m[1]));
    expect(printed).toHaveLength(1);
    const { status, cookie } = await login(one.url, printed[0]);
    expect(status).toBe(200);
    expect((await withCookie(two.url, cookie).call('GET', '/api/admin/me')).status).toBe(200);
    const id = await consented(one.url);
    expect((await withCookie(two.url, cookie).call('POST', `/api/admin/sessions/${id}/flag`, { flag: 'test' })).status).toBe(200);
    expect((await withCookie(one.url, cookie).call('GET', `/api/admin/sessions/${id}`)).json.summary.flag).toBe('test');
    expect((await withCookie(one.url, cookie).call('POST', '/api/admin/logout', {})).status).toBe(200);
    expect((await withCookie(two.url, cookie).call('GET', '/api/admin/me')).status).toBe(401);
  });

  it('failed logins count across instances: ten at one, and the other refuses the address too', async () => {
    const [a, b] = await pair();
    for (let i = 0; i < 5; i++) expect((await login(a.url, `wrong ${i}`)).status).toBe(401);
    for (let i = 5; i < 10; i++) expect((await login(b.url, `wrong ${i}`)).status).toBe(401);
    expect((await login(a.url, 'wrong again')).status).toBe(429);
    expect((await login(b.url)).status).toBe(429);
  });
});
