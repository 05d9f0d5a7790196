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
import { defaultConfig } from '../tests/support/server.ts';

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
});
