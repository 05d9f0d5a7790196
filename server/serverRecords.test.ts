// The server's own records (session start, check, hint, completion) go through the group commit: each answer waits
// for the fdatasync of the record it depends on, other sessions are not stalled meanwhile, a failed write answers 503
// and leaves nothing behind; plus the precomputed security headers equal helmet's own.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { nonogramsOnly } from '../shared/schema/config.ts';

const control = vi.hoisted(() => ({ holdSync: false, held: [] as (() => void)[], failWrites: 0, failSyncs: 0, heldPaths: [] as string[] }));

vi.mock('node:fs', async (importOriginal) => (await import('../tests/support/faultyFs.ts')).faultyFs(await importOriginal<typeof import('node:fs')>(), control));

const { Participant, event, startTestServer, sessionRecords: records, until } = await import('../tests/support/testServer.ts');
const { resetFaults } = await import('../tests/support/faultyFs.ts');
const { securityHeaders } = await import('./app.ts');
const express = (await import('express')).default;
const helmet = (await import('helmet')).default;
type TestServer = Awaited<ReturnType<typeof startTestServer>>;

let server: TestServer | null = null;
afterEach(async () => {
  resetFaults(control);
  await server?.close();
  server = null;
});



/** The records a consented session's log starts with (the sequence is leased at consent). */
const CONSENTED = ['session_start', 'consent', 'step_end', 'sequence_assigned'];

/** A session that consented (events 1 and 2), and a check of its first puzzle. */
async function started(s: TestServer) {
  const p = new Participant(s.url);
  const r = await p.call('POST', '/api/sessions', {});
  expect(r.status).toBe(201);
  const id = r.json.session_id as string;
  const consent = await p.call('POST', '/api/session/events', {
    events: [event(id, 1, { type: 'consent', payload: { agreed: true } }), event(id, 2, { type: 'step_end', payload: { kind: 'consent', reason: 'done' } })],
  });
  expect(consent.json.acked_seq).toBe(2);
  const sequence = (await p.call('GET', '/api/session')).json.sequence as string[];
  const puzzle = nonogramsOnly(s.nonolab.study.config.puzzles, 'this test').find((q) => q.id === sequence[0])!;
  const blank = Array.from({ length: puzzle.height }, () => '?'.repeat(puzzle.width));
  return { p, id: r.json.session_id as string, check: { puzzle_id: puzzle.id, position: 1, rows: blank } };
}

describe('server records through the group commit', () => {
  it("answers a check only after its record is fsync'd, and other sessions go on meanwhile", async () => {
    server = await startTestServer();
    const a = await started(server);
    const b = await started(server);
    control.holdSync = true;
    let answered = false;
    const pending = a.p.call('POST', '/api/session/check', a.check).then((r) => {
      answered = true;
      return r;
    });
    await until(() => control.held.length > 0 && records(server!.dataDir, a.id).some((r) => r.type === 'check'));
    expect(answered).toBe(false);
    // Another session's events are written (their fsync is held too) without waiting for the check's fsync.
    const other = b.p.call('POST', '/api/session/events', { events: [event(b.id, 3)] });
    await until(() => records(server!.dataDir, b.id).some((r) => r.origin === 'client'));
    expect(answered).toBe(false);
    control.holdSync = false;
    control.held.splice(0).forEach((release) => release());
    const r = await pending;
    expect(r).toEqual({ status: 200, json: { solved: false } });
    expect((await other).json).toEqual({ acked_seq: 3 });
    expect(records(server.dataDir, a.id).map((x) => x.type)).toEqual([...CONSENTED, 'check']);
  });

  it('keeps a check record in order with the events queued before it', async () => {
    server = await startTestServer();
    const a = await started(server);
    control.holdSync = true;
    const events = a.p.call('POST', '/api/session/events', { events: [event(a.id, 3), event(a.id, 4)] });
    const check = a.p.call('POST', '/api/session/check', a.check);
    await until(() => control.held.length > 0);
    control.holdSync = false;
    control.held.splice(0).forEach((release) => release());
    expect((await events).json).toEqual({ acked_seq: 4 });
    expect((await check).status).toBe(200);
    expect(records(server.dataDir, a.id).map((x) => x.seq ?? x.type)).toEqual(['session_start', 1, 2, 'sequence_assigned', 3, 4, 'check']);
  });

  it('answers 503 when a check record cannot be written, leaves the file as it was, and takes the retry', async () => {
    server = await startTestServer();
    const a = await started(server);
    const before = readFileSync(join(server.dataDir, 'sessions', `${a.id}.ndjson`));
    control.failWrites = 1;
    const failed = await a.p.call('POST', '/api/session/check', a.check);
    expect(failed.status).toBe(503);
    expect(failed.json.error).toMatch(/could not store/);
    expect(readFileSync(join(server.dataDir, 'sessions', `${a.id}.ndjson`))).toEqual(before);
    expect((await a.p.call('POST', '/api/session/check', a.check)).json).toEqual({ solved: false });
    expect(records(server.dataDir, a.id).map((x) => x.type)).toEqual([...CONSENTED, 'check']);
  });

  it.each([
    ['its record cannot be written (ENOSPC)', () => void (control.failWrites = 1)],
    ["its lease cannot be made durable (the WAL's fsync fails)", () => void (control.failSyncs = 1)],
  ])('undoes a start when %s: 503, no token, no row, no file, the sequence free again', async (_what, fault) => {
    server = await startTestServer();
    fault();
    const p = new Participant(server.url);
    const r = await p.call('POST', '/api/sessions', {});
    expect(r.status).toBe(503);
    expect(p.cookie).toBe('');
    expect(await server.nonolab.store.sessions()).toEqual([]);
    expect((await server.nonolab.store.allSequences()).filter((s) => s.status !== 'free')).toEqual([]);
    expect(await server.nonolab.log.sessionIds()).toEqual([]);
    expect((await p.call('POST', '/api/sessions', {})).status).toBe(201);
    expect(await server.nonolab.store.sessions()).toHaveLength(1);
  });

  it("answers a start only after its lease is fsync'd in SQLite's WAL and then its record, serving others meanwhile", async () => {
    server = await startTestServer();
    const a = await started(server);
    control.holdSync = true;
    const p = new Participant(server.url);
    let answered = false;
    const pending = p.call('POST', '/api/sessions', {}).then((r) => {
      answered = true;
      return r;
    });
    await until(() => control.heldPaths.some((path) => path.endsWith('nonolab.sqlite-wal')));
    const id = (await server.nonolab.store.sessions()).find((s) => s.id !== a.id)!.id;
    // The lease is committed but not yet known durable: no record written, no answer; the event loop is free.
    expect(existsSync(join(server.dataDir, 'sessions', `${id}.ndjson`))).toBe(false);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    expect(answered).toBe(false);
    const release = (suffix: string) => {
      const i = control.heldPaths.findIndex((path) => path.endsWith(suffix));
      control.heldPaths.splice(i, 1);
      control.held.splice(i, 1)[0]();
    };
    release('-wal');
    await until(() => control.heldPaths.some((path) => path.endsWith(`${id}.ndjson`)));
    expect(records(server.dataDir, id).map((r) => r.type)).toEqual(['session_start']);
    expect(answered).toBe(false);
    release(`${id}.ndjson`);
    expect((await pending).status).toBe(201);
  });
});

describe('securityHeaders', () => {
  it('sets exactly the headers helmet sets', async () => {
    const headersOf = async (mw: import('express').RequestHandler) => {
      const app = express();
      app.use(mw);
      app.get('/x', (_req, res) => res.json({ ok: true }));
      const http = await new Promise<import('node:http').Server>((resolve) => {
        const s = app.listen(0, '127.0.0.1', () => resolve(s));
      });
      const res = await fetch(`http://127.0.0.1:${(http.address() as AddressInfo).port}/x`);
      await res.text();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
      const h = Object.fromEntries(res.headers);
      delete h.date;
      delete h.etag;
      return h;
    };
    const ours = await headersOf(securityHeaders());
    expect(ours).toEqual(await headersOf(helmet()));
    expect(ours['content-security-policy']).toContain("default-src 'self'");
    expect(ours['x-powered-by']).toBeUndefined();
  });
});
