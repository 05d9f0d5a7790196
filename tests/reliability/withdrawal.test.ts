// Withdrawal and damaged logs at unlucky moments: a crash at each durable step of a withdrawal leaves either the whole
// session or nothing of it after start-up, on both stores (nothing that names the session anywhere: rows of every
// table, files); a damaged line in the middle of a log costs no valid record (the file store's own damage).
import { afterEach, describe, expect, it } from 'vitest';
import { appendFileSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Participant, event, startTestServer, type TestServer } from '../support/testServer.ts';
import { STORES } from '../support/postgres.ts';
import { dropConnections, tracesOf } from './faults.ts';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

class Crash extends Error {}

describe.each(STORES)('withdrawal under a crash on %s', (store) => {
  // (On PostgreSQL 'unlinked' means the session's event rows are deleted and committed; the process's connections are
  // dropped as it dies, so a transaction it had open is aborted.)
  for (const point of ['withdraw:marked', 'withdraw:unlinked', 'withdraw:deleted']) {
    it(`a kill at ${point} leaves nothing of the session after start-up, and the sequence back in the pool`, async () => {
      let armed = false;
      server = await startTestServer({
        store,
        crashPoint: async (at) => {
          if (!armed || at !== point) return;
          if (server?.databaseUrl) await dropConnections(server.databaseUrl);
          throw new Crash(at);
        },
      });
      const dataDir = server.dataDir;
      const databaseUrl = server.databaseUrl;
      const p = new Participant(server.url);
      const panel = { provider: 'prolific', participant_id: 'PID-withdraw-1' };
      const s = (await p.call('POST', '/api/sessions', { mode: 'panel', panel })).json;
      expect((await p.call('POST', '/api/session/events', { events: [event(s.session_id, 1), event(s.session_id, 2)] })).json.acked_seq).toBe(2);
      const other = new Participant(server.url);
      const kept = (await other.call('POST', '/api/sessions', {})).json.session_id;
      expect((await tracesOf(server, s.session_id)).length).toBeGreaterThan(0);
      armed = true;
      await expect(server!.nonolab.service.withdraw(s.session_id, 'participant')).rejects.toThrow(Crash);
      // The process dies here: nothing more of it runs.
      await server.close();
      const logs: string[] = [];
      server = await startTestServer({ dataDir, databaseUrl, logger: (m) => logs.push(m) });
      const rows = server.nonolab.store;
      expect(existsSync(join(dataDir, 'sessions', `${s.session_id}.ndjson`))).toBe(false);
      expect(await server.nonolab.log.read(s.session_id)).toEqual([]);
      expect(await rows.session(s.session_id)).toBeUndefined();
      expect(await rows.sessionOfPanel('prolific', 'PID-withdraw-1')).toBeUndefined();
      expect((await rows.allSequences()).filter((q) => q.session_id === s.session_id)).toEqual([]);
      // The audit row says only that a withdrawal happened (by whom), never which session: no row, no file names it.
      expect((await rows.auditRows()).filter((a) => a.action === 'withdrawal').map((a) => a.detail)).toEqual(['by participant']);
      expect(await tracesOf(server, s.session_id)).toEqual([]);
      // The other participant is untouched.
      expect((await rows.session(kept))?.status).toBe('active');
      if (point !== 'withdraw:deleted') expect(logs.join('\n')).toContain(s.session_id);
      // The withdrawn token is gone too.
      const again = new Participant(server.url);
      again.cookie = p.cookie;
      expect((await again.call('GET', '/api/session')).status).toBe(401);
    });
  }
});

// The file store only: a log file without a row is debris of the embedded store's two halves (PostgreSQL deletes a
// withdrawn session's events and rows in the database itself; there is no file to leave behind).
describe('withdrawal debris in the file store', () => {

  it('deletes a log file without a session row at start-up, and says so', async () => {
    server = await startTestServer();
    const dataDir = server.dataDir;
    await server.close();
    const orphan = 's00000000000000ff';
    writeFileSync(join(dataDir, 'sessions', `${orphan}.ndjson`), JSON.stringify({ ...event(orphan, 1), origin: 'client', t_server: 1, config_hash: 'x', app_version: 'x' }) + '\n');
    const logs: string[] = [];
    server = await startTestServer({ dataDir, logger: (m) => logs.push(m) });
    expect(existsSync(join(dataDir, 'sessions', `${orphan}.ndjson`))).toBe(false);
    expect(logs.join('\n')).toMatch(new RegExp(`${orphan}.*deleted`));
  });
});

// The file store only: damage to an NDJSON file (a disk, an editor); PostgreSQL's rows are checksummed pages that a
// transaction writes whole, with no line to quarantine.
describe('a damaged line in the middle of a log', () => {
  it('keeps every valid record, copies the original to quarantine/, flags the session and logs loudly', async () => {
    server = await startTestServer();
    const dataDir = server.dataDir;
    const p = new Participant(server.url);
    const id = (await p.call('POST', '/api/sessions', {})).json.session_id;
    const events = Array.from({ length: 20 }, (_, i) => event(id, i + 1));
    expect((await p.call('POST', '/api/session/events', { events })).json.acked_seq).toBe(20);
    await server.close();
    const file = join(dataDir, 'sessions', `${id}.ndjson`);
    const lines = readFileSync(file, 'utf8').split('\n');
    // Line 4 (seq 3) damaged in place, e.g. by a disk or an editor; the rest is whole.
    const original = [...lines.slice(0, 3), lines[3].slice(0, 25) + '#garbage#', ...lines.slice(4)].join('\n');
    writeFileSync(file, original);
    const logs: string[] = [];
    server = await startTestServer({ dataDir, logger: (m) => logs.push(m) });
    const kept = readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    // Nothing valid was cut: 19 of the 20 acknowledged events, and the start record.
    expect(kept.filter((r) => r.origin === 'client').map((r) => r.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1).filter((x) => x !== 3));
    const quarantine = join(dataDir, 'sessions', 'quarantine');
    const copies = readdirSync(quarantine);
    expect(copies).toHaveLength(1);
    expect(readFileSync(join(quarantine, copies[0]), 'utf8')).toBe(original);
    expect(logs.join('\n')).toMatch(/WARNING: session .*damaged line.*4/);
    expect(await server.nonolab.store.logRepairs()).toMatchObject([{ session_id: id, bad_lines: [4], kept_lines: 20 }]);
    // The acknowledged sequence stops before the hole; the session goes on from there, nothing written twice.
    expect((await server.nonolab.store.session(id))!.acked_seq).toBe(2);
    // Withdrawing the session also removes the quarantined copy.
    await server.nonolab.service.withdraw(id, 'experimenter');
    expect(readdirSync(quarantine)).toEqual([]);
  });

  it('still cuts only an unterminated last line (a torn write), without quarantine', async () => {
    server = await startTestServer();
    const dataDir = server.dataDir;
    const p = new Participant(server.url);
    const id = (await p.call('POST', '/api/sessions', {})).json.session_id;
    await p.call('POST', '/api/session/events', { events: [event(id, 1)] });
    await server.close();
    appendFileSync(join(dataDir, 'sessions', `${id}.ndjson`), '{"half":');
    server = await startTestServer({ dataDir });
    expect(existsSync(join(dataDir, 'sessions', 'quarantine'))).toBe(false);
    expect(await server.nonolab.store.logRepairs()).toEqual([]);
    expect(readFileSync(join(dataDir, 'sessions', `${id}.ndjson`), 'utf8').endsWith('}\n')).toBe(true);
  });
});
