// The durability promises, made observable by holding the storage's hand: no acknowledgement before the events are
// durable, nothing served before it either, and a failed write leaves no hole (its retry is stored exactly once).
// A SIGKILL cannot show the first of these (the page cache outlives the process), so these tests hold the durable
// step back and fail writes on purpose: on the embedded store fdatasync and write (a faulty node:fs), on PostgreSQL
// the COMMIT (a deferred trigger waiting on a lock the test holds) and an INSERT (a trigger raising an error).
import type { SqliteStore } from '../../store/store.ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const control = vi.hoisted(() => ({
  holdSync: false,
  held: [] as (() => void)[],
  failWrites: 0,
  syncCalls: 0,
}));

vi.mock('node:fs', async (importOriginal) => (await import('../support/faultyFs.ts')).faultyFs(await importOriginal<typeof import('node:fs')>(), control));

const { Participant, event, startTestServer, sessionRecords, until } = await import('../support/testServer.ts');
const { resetFaults } = await import('../support/faultyFs.ts');
const { STORES } = await import('../support/postgres.ts');
const { clearTrigger, eventsTrigger, holdCommits, loggedSeqs } = await import('./faults.ts');
type TestServer = Awaited<ReturnType<typeof startTestServer>>;

let server: TestServer | null = null;
let releaseHeld: (() => Promise<void>) | null = null;
afterEach(async () => {
  resetFaults(control);
  await releaseHeld?.();
  releaseHeld = null;
  await server?.close();
  server = null;
});

const clientSeqs = (dataDir: string, id: string) => sessionRecords(dataDir, id).filter((r) => r.origin === 'client').map((r) => r.seq);

/**
 * Hold the durable step of the store's writes: fdatasync (the lines are written, not yet synced) or COMMIT (the rows
 * are inserted, not yet committed). `holding` says a write of `id` with `n` client events is held there.
 */
async function holdDurable(s: TestServer): Promise<{ holding: (id: string, n: number) => Promise<boolean>; release: () => Promise<void> }> {
  if (s.databaseUrl) {
    const held = await holdCommits(s.databaseUrl);
    releaseHeld = held.release;
    return {
      holding: async () => (await held.waiting()) > 0,
      release: async () => {
        releaseHeld = null;
        await held.release();
      },
    };
  }
  control.holdSync = true;
  return {
    holding: async (id, n) => control.held.length > 0 && clientSeqs(s.dataDir, id).length === n,
    release: async () => {
      control.holdSync = false;
      control.held.splice(0).forEach((release) => release());
    },
  };
}

async function eventually(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((r) => setTimeout(r, 5));
}

describe.each(STORES)('durable before acknowledged on %s', (store) => {
  it('acknowledges only after the step making the events durable has returned (fdatasync, COMMIT), and serves nothing before', async () => {
    server = await startTestServer({ store });
    const p = new Participant(server.url);
    const id = (await p.call('POST', '/api/sessions', {})).json.session_id;
    const hold = await holdDurable(server);
    let answered = false;
    const pending = p.call('POST', '/api/session/events', { events: [event(id, 1), event(id, 2), event(id, 3)] }).then((r) => {
      answered = true;
      return r;
    });
    // The events are written (lines in the file, rows in the table) and their fdatasync / COMMIT is under way, not returned.
    await eventually(() => hold.holding(id, 3));
    const other = new Participant(server.url);
    other.cookie = p.cookie;
    const meanwhile = await other.call('GET', '/api/session');
    expect(answered).toBe(false);
    expect(meanwhile.json.acked_seq).toBe(0);
    expect((await server.nonolab.log.read(id)).filter((r) => r.origin === 'client')).toEqual([]);
    // A retry racing the original neither writes twice nor is acknowledged early.
    const taken = vi.spyOn(server.nonolab.service, 'appendEvents');
    let retryAnswered = false;
    const retry = other.call('POST', '/api/session/events', { events: [event(id, 1), event(id, 2), event(id, 3)] }).then((r) => {
      retryAnswered = true;
      return r;
    });
    await until(() => taken.mock.calls.length === 1);
    // Positive control: a request sent after the retry reached the service is answered, so an early answer to the
    // retry would have arrived by now.
    expect((await other.call('GET', '/api/session')).json.acked_seq).toBe(0);
    expect(answered || retryAnswered).toBe(false);
    taken.mockRestore();
    await hold.release();
    expect((await pending).json.acked_seq).toBe(3);
    expect((await retry).json.acked_seq).toBe(3);
    expect((await other.call('GET', '/api/session')).json.acked_seq).toBe(3);
    expect(await loggedSeqs(server, id)).toEqual([1, 2, 3]);
  });

  it('answers a failed write with 503, leaves nothing of it (no partial line, no row), and stores the retry exactly once', async () => {
    server = await startTestServer({ store });
    const p = new Participant(server.url);
    const id = (await p.call('POST', '/api/sessions', {})).json.session_id;
    expect((await p.call('POST', '/api/session/events', { events: [event(id, 1)] })).json.acked_seq).toBe(1);
    const before = server.databaseUrl ? '' : readFileSync(join(server.dataDir, 'sessions', `${id}.ndjson`), 'utf8');
    // The file store: the write fails (disk full). PostgreSQL: the batch's INSERT fails at its second row (seq 3),
    // after the first (seq 2) was inserted in the same transaction.
    if (server.databaseUrl) await eventsTrigger(server.databaseUrl, id, 3, 'fail');
    else control.failWrites = 1;
    const failed = await p.call('POST', '/api/session/events', { events: [event(id, 2), event(id, 3)] });
    if (server.databaseUrl) await clearTrigger(server.databaseUrl);
    expect(failed.status).toBe(503);
    expect(typeof failed.json.error).toBe('string');
    if (!server.databaseUrl) expect(readFileSync(join(server.dataDir, 'sessions', `${id}.ndjson`), 'utf8')).toBe(before);
    expect(await loggedSeqs(server, id)).toEqual([1]);
    expect((await p.call('GET', '/api/session')).json.acked_seq).toBe(1);
    // The client resends from its last acknowledged seq.
    expect((await p.call('POST', '/api/session/events', { events: [event(id, 2), event(id, 3), event(id, 4)] })).json.acked_seq).toBe(4);
    expect(await loggedSeqs(server, id)).toEqual([1, 2, 3, 4]);
  });
});

// The embedded store only: these two are about its two halves (the NDJSON group commit and SQLite's copy of the
// progress). On PostgreSQL a batch's rows and its acked seq are one statement in one transaction (no copy to lag),
// and each batch is its own synchronous commit (no shared fsync to count).

describe('group commit', () => {
  it('acknowledges durable events even when the SQLite update after them fails, and never writes a retry twice', async () => {
    server = await startTestServer();
    const p = new Participant(server.url);
    const id = (await p.call('POST', '/api/sessions', {})).json.session_id;
    const spy = vi.spyOn((server.nonolab.store as SqliteStore).direct, 'updateProgress').mockImplementationOnce(() => {
      throw new Error('disk I/O error');
    });
    expect((await p.call('POST', '/api/session/events', { events: [event(id, 1), event(id, 2), event(id, 3)] })).json.acked_seq).toBe(3);
    // SQLite's copy lags behind the file; a client resuming now resends, and nothing is written twice.
    expect((await p.call('GET', '/api/session')).json.acked_seq).toBe(0);
    expect((await p.call('POST', '/api/session/events', { events: [event(id, 1), event(id, 2), event(id, 3), event(id, 4)] })).json.acked_seq).toBe(4);
    expect(clientSeqs(server.dataDir, id)).toEqual([1, 2, 3, 4]);
    expect((await p.call('GET', '/api/session')).json.acked_seq).toBe(4);
    spy.mockRestore();
  });

  it('shares one fdatasync among the batches of a session that arrive together', async () => {
    server = await startTestServer();
    const p = new Participant(server.url);
    const id = (await p.call('POST', '/api/sessions', {})).json.session_id;
    // Every batch the server takes is queued for the session's next write by appendDurable (the spy calls through).
    const queued = vi.spyOn(server.nonolab.log, 'appendDurable');
    control.holdSync = true;
    const first = p.call('POST', '/api/session/events', { events: [event(id, 1)] });
    await until(() => control.held.length === 1);
    // While the first write's fsync is out, three more batches queue up behind it (waited for, not hoped for)...
    const more = [2, 3, 4].map((s) => p.call('POST', '/api/session/events', { events: [event(id, s)] }));
    await until(() => queued.mock.calls.length === 4);
    expect(control.held).toHaveLength(1); // ...and none of them is written while the first fsync is out
    const syncsBefore = control.syncCalls;
    control.holdSync = false;
    control.held.splice(0).forEach((release) => release());
    expect((await first).json.acked_seq).toBe(1);
    const acks = (await Promise.all(more)).map((r) => r.json.acked_seq);
    // ...and go out as one write with one more fdatasync; each answer acknowledges up to its own batch.
    expect(control.syncCalls - syncsBefore).toBe(1);
    expect(acks).toEqual([2, 3, 4]);
    expect(clientSeqs(server.dataDir, id)).toEqual([1, 2, 3, 4]);
    queued.mockRestore();
  });
});
