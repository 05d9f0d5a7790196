// `nonolab migrate`: a study played on the embedded store moves into PostgreSQL, verified; a rerun copies nothing twice,
// a cut-short run resumes, a foreign target is refused, and the server carries on with the same sessions there.
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Participant, event, playSteps, rowsMentioning, startTestServer } from '../tests/support/testServer.ts';
import { tempDir } from '../tests/support/tempDirs.ts';
import { migrate } from './migrate.ts';
import { databaseFor } from '../tests/support/postgres.ts';
import { defaultConfig, writeConfig } from '../tests/support/server.ts';
import { hashPassword } from './passwords.ts';
import type { NonolabServer } from '../server/app.ts';
import type { StudyHost } from '../server/studyHost.ts';

/** A client for `base` holding `cookie` (a login or a participant's token made elsewhere). */
function withCookie(base: string, cookie: string): Participant {
  const p = new Participant(base);
  p.cookie = cookie;
  return p;
}

async function sql(url: string, text: string, params: unknown[] = []): Promise<any[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows;
  } finally {
    await client.end();
  }
}

describe('nonolab migrate', () => {
  it('copies sessions, pool and events, verified by counts and hashes; reruns and resumes without copying twice', async () => {
    const sqlite = await startTestServer();
    const config = defaultConfig();
    const players: { p: Participant; id: string; seq: number }[] = [];
    for (let i = 0; i < 3; i++) {
      const p = new Participant(sqlite.url);
      const s = (await p.call('POST', '/api/sessions', {})).json;
      players.push({ p, id: s.session_id, seq: await playSteps(p, s, config, 2 + i) });
    }
    const withdrawn = new Participant(sqlite.url);
    const w = (await withdrawn.call('POST', '/api/sessions', {})).json;
    await playSteps(withdrawn, w, config, 1);
    const dataDir = sqlite.dataDir;
    const url = (await databaseFor('postgres'))!;

    // A first run cut short: only part of the events were copied (as if the process died between sessions).
    const first = await migrate({ from: dataDir, to: url });
    expect(first.mismatches).toEqual([]);
    expect(first.events_copied).toBe(first.events_total);
    await sql(url, 'DELETE FROM events WHERE session_id = $1 AND n > 2', [players[0].id]);
    // Meanwhile the study went on: one more batch, and a withdrawal.
    expect((await players[1].p.call('POST', '/api/session/events', { events: [event(players[1].id, players[1].seq + 1, { step: 3, phase: 'pre_survey' })] })).status).toBe(200);
    expect((await withdrawn.call('POST', '/api/session/withdraw', {})).status).toBe(200);
    await sqlite.close();

    const second = await migrate({ from: dataDir, to: url });
    expect(second.mismatches).toEqual([]);
    expect(second.sessions_removed).toEqual([w.session_id]);
    expect(second.events_copied).toBeGreaterThan(1); // the resumed session's rest and the new batch, nothing else
    expect(second.events_copied).toBeLessThan(second.events_total);
    expect(second.counts.sessions).toEqual({ source: 3, target: 3 });
    expect(await sql(url, 'SELECT 1 FROM events WHERE session_id = $1', [w.session_id])).toEqual([]);
    const third = await migrate({ from: dataDir, to: url });
    expect(third.events_copied).toBe(0);
    expect(third.mismatches).toEqual([]);

    // A target whose rows are not this study's: refused, nothing changed.
    await sql(url, "UPDATE events SET line = line || ' ' WHERE session_id = $1 AND n = 2", [players[2].id]);
    await expect(migrate({ from: dataDir, to: url })).rejects.toThrow(/not the first lines of its file/);
    await sql(url, 'UPDATE events SET line = substr(line, 1, length(line) - 1) WHERE session_id = $1 AND n = 2', [players[2].id]);

    // The server on PostgreSQL carries on with the same sessions (tokens, pool, acked seq).
    const onPg = await startTestServer({ dataDir, databaseUrl: url });
    try {
      const p = players[1].p;
      const again = new Participant(onPg.url);
      again.cookie = p.cookie;
      const state = (await again.call('GET', '/api/session')).json;
      expect(state.session_id).toBe(players[1].id);
      expect(state.acked_seq).toBe(players[1].seq + 1);
      const next = await again.call('POST', '/api/session/events', { events: [event(players[1].id, players[1].seq + 2, { step: 3, phase: 'pre_survey' })] });
      expect(next.json.acked_seq).toBe(players[1].seq + 2);
      // A new participant gets a sequence nobody holds (the pool's ids and leases came over).
      const fresh = new Participant(onPg.url);
      const f = (await fresh.call('POST', '/api/sessions', {})).json;
      await playSteps(fresh, f, config, 1);
      const held = (await onPg.nonolab.store.allSequences()).filter((q) => q.status !== 'free');
      expect(new Set(held.map((q) => q.session_id)).size).toBe(held.length);
      expect(held.map((q) => q.session_id).sort()).toEqual([...players.map((x) => x.id), f.session_id].sort());
    } finally {
      await onPg.close();
    }
  });

  it('carries the experimenter`s password, logins and marks: a login made before the move is good after it, on another machine', async () => {
    const saved = process.env.NONOLAB_ADMIN_PASSWORD;
    try {
      process.env.NONOLAB_ADMIN_PASSWORD = 'chosen before the move';
      const sqlite = await startTestServer();
      const config = defaultConfig();
      const e = new Participant(sqlite.url);
      expect((await e.call('POST', '/api/admin/login', { password: 'chosen before the move' })).status).toBe(200);
      const consented = async () => {
        const p = new Participant(sqlite.url);
        const s = (await p.call('POST', '/api/sessions', {})).json;
        await playSteps(p, s, config, 1);
        return s.session_id as string;
      };
      const pilot = await consented();
      const test = await consented();
      expect((await e.call('POST', `/api/admin/sessions/${pilot}/flag`, { flag: 'pilot' })).status).toBe(200);
      expect((await e.call('POST', `/api/admin/sessions/${test}/flag`, { flag: 'test' })).status).toBe(200);
      const url = (await databaseFor('postgres'))!;

      const first = await migrate({ from: sqlite.dataDir, to: url });
      expect(first.mismatches).toEqual([]);
      expect(first.counts.admin_credentials).toEqual({ source: 1, target: 1 });
      expect(first.counts.admin_sessions).toEqual({ source: 1, target: 1 });
      expect(first.counts.admin_marks).toEqual({ source: 2, target: 2 });
      // The study goes on: one flagged session withdrawn, a mark changed in the target by hand (a rerun mirrors the source).
      expect((await e.call('POST', `/api/admin/sessions/${test}/withdraw`, { confirm: test })).status).toBe(200);
      await sql(url, "UPDATE admin_marks SET flag = 'excluded' WHERE session_id = $1", [pilot]);
      await sqlite.close();
      const second = await migrate({ from: sqlite.dataDir, to: url });
      expect(second.mismatches).toEqual([]);
      expect(second.sessions_removed).toEqual([test]);
      expect(second.counts.admin_marks).toEqual({ source: 1, target: 1 });
      expect(await rowsMentioning(url, test)).toEqual([]);
      const third = await migrate({ from: sqlite.dataDir, to: url });
      expect(third.mismatches).toEqual([]);
      expect(third.counts).toEqual(second.counts);

      // Another machine, its own empty data directory, no password given: the migrated one holds (nothing generated).
      process.env.NONOLAB_ADMIN_PASSWORD = '';
      const printed: string[] = [];
      const elsewhere = tempDir('nonolab-elsewhere-');
      const onPg = await startTestServer({ dataDir: elsewhere, databaseUrl: url, logger: (m) => printed.push(m) });
      try {
        expect(printed.filter((m) => m.includes('experimenter password'))).toEqual([]);
        const same = new Participant(onPg.url);
        same.cookie = e.cookie;
        expect((await same.call('GET', '/api/admin/me')).status).toBe(200);
        expect((await same.call('GET', `/api/admin/sessions/${pilot}`)).json.summary.flag).toBe('pilot');
        expect((await same.call('GET', '/api/admin/pool')).json.balance.flagged).toBe(1);
        expect((await new Participant(onPg.url).call('POST', '/api/admin/login', { password: 'chosen before the move' })).status).toBe(200);
        expect(existsSync(join(elsewhere, 'admin.sqlite'))).toBe(false);
      } finally {
        await onPg.close();
      }
    } finally {
      process.env.NONOLAB_ADMIN_PASSWORD = saved;
    }
  });

  it('carries everything of a data directory with two studies: the registry, both stores; a server on PostgreSQL serves both, to the same logins', async () => {
    const sqlite = await startTestServer();
    const host = (sqlite.nonolab as NonolabServer & { host: StudyHost }).host;
    const config = defaultConfig();
    const now = Date.now();
    await host.registry.addAccount({ name: 'alice', password_hash: hashPassword('alice-password-1'), admin: false, now, by: null });
    await host.registry.addAccount({ name: 'bob', password_hash: hashPassword('bob-password-1'), admin: false, now, by: null });
    await host.registry.setMember(host.firstSlug, 'alice', 'owner', now, 'admin');
    const bob = (await host.registry.account('bob'))!;
    await host.addStudy('pilot', JSON.stringify({ ...config, id: 'pilot-study', title: 'The pilot' }), bob);
    await host.addStudy('temp', JSON.stringify({ ...config, id: 'temp-study', title: 'A study deleted before the move' }), bob);
    const login = async (base: string, name: string, password: string) => {
      const e = new Participant(base);
      expect((await e.call('POST', '/api/admin/login', { name, password })).status, `login ${name}`).toBe(200);
      return e;
    };
    const play = async (base: string, steps: number) => {
      const p = new Participant(base);
      const s = (await p.call('POST', '/api/sessions', {})).json;
      const seq = await playSteps(p, s, config, steps);
      return { p, id: s.session_id as string, seq };
    };
    const firstPlayers = [await play(sqlite.url, 2), await play(sqlite.url, 3)];
    const pilotPlayers = [await play(`${sqlite.url}/s/pilot`, 2), await play(`${sqlite.url}/s/pilot`, 3), await play(`${sqlite.url}/s/pilot`, 1)];
    await play(`${sqlite.url}/s/temp`, 1);
    const aliceBefore = await login(sqlite.url, 'alice', 'alice-password-1');
    const bobBefore = await login(sqlite.url, 'bob', 'bob-password-1');
    /** Every session's records as the admin API answers them: [study prefix, session] -> records. */
    const logs = async (base: string, e: Participant, prefix: string, ids: string[]) => {
      const out: Record<string, unknown[]> = {};
      for (const id of ids) {
        const r = await withCookie(base, e.cookie).call('GET', `${prefix}/sessions/${id}/events`);
        expect(r.status).toBe(200);
        out[id] = r.json.records;
      }
      return out;
    };
    const firstLogs = await logs(sqlite.url, aliceBefore, '/api/admin', firstPlayers.map((x) => x.id));
    const pilotLogs = await logs(sqlite.url, bobBefore, '/api/admin/studies/pilot', pilotPlayers.map((x) => x.id));
    expect(Object.values(pilotLogs).every((r) => r.length > 0)).toBe(true);
    const url = (await databaseFor('postgres'))!;

    const first = await migrate({ from: sqlite.dataDir, to: url });
    expect(first.mismatches).toEqual([]);
    expect(first.registry).toBe(true);
    expect(first.sessions).toBe(2);
    expect(Object.keys(first.studies).sort()).toEqual(['pilot', 'temp']);
    expect(first.studies.pilot.sessions).toBe(3);
    expect(first.studies.pilot.events_copied).toBe(first.studies.pilot.events_total);
    expect(first.counts.studies).toEqual({ source: 3, target: 3 });
    expect(first.counts.accounts).toEqual({ source: 3, target: 3 }); // admin, alice, bob
    expect(first.counts.account_logins).toEqual({ source: 2, target: 2 });
    expect((await sql(url, "SELECT COUNT(*)::int AS n FROM study_temp.sessions"))[0].n).toBe(1);

    // The study goes on: one more batch in the pilot, the temporary study deleted; then the server stops and a rerun
    // brings the change over (the deleted study's schema goes), and a third run copies nothing.
    const more = pilotPlayers[1];
    const batch = await more.p.call('POST', '/api/session/events', { events: [event(more.id, more.seq + 1, { step: 3, phase: 'pre_survey' })] });
    expect(batch.status).toBe(200);
    const bobAgain = withCookie(sqlite.url, bobBefore.cookie);
    expect((await bobAgain.call('POST', '/api/admin/studies/temp/delete', { confirm: 'temp' })).status).toBe(200);
    pilotLogs[more.id] = (await bobAgain.call('GET', `/api/admin/studies/pilot/sessions/${more.id}/events`)).json.records;
    await sqlite.close();
    const second = await migrate({ from: sqlite.dataDir, to: url });
    expect(second.mismatches).toEqual([]);
    expect(Object.keys(second.studies)).toEqual(['pilot']);
    expect(second.studies.pilot.events_copied).toBe(1);
    expect(second.events_copied).toBe(0);
    expect(second.counts.studies).toEqual({ source: 2, target: 2 });
    expect(await sql(url, "SELECT schema_name FROM information_schema.schemata WHERE schema_name LIKE 'study\\_%' ORDER BY 1")).toEqual([{ schema_name: 'study_pilot' }]);
    const third = await migrate({ from: sqlite.dataDir, to: url });
    expect(third.mismatches).toEqual([]);
    expect(third.events_copied + third.studies.pilot.events_copied).toBe(0);
    expect(third.counts).toEqual(second.counts);

    // Another data directory whose first study is another one: refused, nothing changed.
    const other = await startTestServer({ configPath: writeConfig({ ...config, id: 'another-study' }) });
    await other.close();
    await expect(migrate({ from: other.dataDir, to: url })).rejects.toThrow(/first study is '.*', the data directory's 'another-study'/);
    expect((await sql(url, 'SELECT slug FROM nonolab_registry.studies ORDER BY slug')).map((r) => r.slug)).toEqual([host.firstSlug, 'pilot'].sort());

    // A server on PostgreSQL, on another machine (its own empty data directory): both studies, the same logins.
    const onPg = await startTestServer({ dataDir: tempDir('nonolab-elsewhere-'), databaseUrl: url });
    try {
      const studiesOf = async (e: Participant) => (await e.call('GET', '/api/admin/studies')).json.studies.map((x: any) => [x.slug, x.role]);
      const alice = await login(onPg.url, 'alice', 'alice-password-1');
      const bobLater = await login(onPg.url, 'bob', 'bob-password-1');
      expect((await new Participant(onPg.url).call('POST', '/api/admin/login', { name: 'bob', password: 'wrong-password' })).status).toBe(401);
      // A login made before the move is good after it.
      const bobOld = withCookie(onPg.url, bobBefore.cookie);
      for (const e of [bobLater, bobOld]) expect(await studiesOf(e)).toEqual([['pilot', 'owner']]);
      expect(await studiesOf(alice)).toEqual([[host.firstSlug, 'owner']]);
      // Each member sees only their studies.
      expect((await alice.call('GET', '/api/admin/studies/pilot/sessions')).status).toBe(404);
      expect((await bobLater.call('GET', '/api/admin/sessions')).status).toBe(404);
      expect((await bobLater.call('GET', '/api/admin/studies/temp/sessions')).status).toBe(404);
      expect((await alice.call('GET', '/api/admin/sessions')).json.sessions.map((x: any) => x.session_id).sort()).toEqual(firstPlayers.map((x) => x.id).sort());
      expect((await bobLater.call('GET', '/api/admin/studies/pilot/sessions')).json.sessions.map((x: any) => x.session_id).sort()).toEqual(pilotPlayers.map((x) => x.id).sort());
      // The events intact: each session's records as they were.
      expect(await logs(onPg.url, alice, '/api/admin', firstPlayers.map((x) => x.id))).toEqual(firstLogs);
      expect(await logs(onPg.url, bobLater, '/api/admin/studies/pilot', pilotPlayers.map((x) => x.id))).toEqual(pilotLogs);
      // A pilot participant carries on (its token, acked seq and sequence came over); a new one leases a free sequence.
      const again = withCookie(`${onPg.url}/s/pilot`, more.p.cookie);
      const state = (await again.call('GET', '/api/session')).json;
      expect(state.session_id).toBe(more.id);
      expect(state.acked_seq).toBe(more.seq + 1);
      expect((await again.call('POST', '/api/session/events', { events: [event(more.id, more.seq + 2, { step: 3, phase: 'pre_survey' })] })).json.acked_seq).toBe(more.seq + 2);
      const fresh = await play(`${onPg.url}/s/pilot`, 1);
      const held = (await bobLater.call('GET', '/api/admin/studies/pilot/pool')).json.sequences.filter((q: any) => q.session_id);
      expect(held.map((q: any) => q.session_id).sort()).toEqual([...pilotPlayers.map((x) => x.id), fresh.id].sort());
    } finally {
      await onPg.close();
    }
  });
});
