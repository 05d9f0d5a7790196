// The events lane (POST /api/session/events beside Express) answers as the Express routes do: same headers, same
// JSON errors, same limits; and its body and cookie readers against what body-parser and the cookie package do.
import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { Participant, event, sessionRecords, startTestServer, type TestServer } from '../tests/support/testServer.ts';
import { BODY_LIMIT } from './app.ts';
import { cookieValue } from './requestBody.ts';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** A raw request (exact headers and body bytes, chunked when no length is given). */
function raw(url: string, path: string, opts: { headers?: Record<string, string>; chunks?: (string | Buffer)[] } = {}): Promise<{ status: number; headers: IncomingMessage['headers']; json: any }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, method: 'POST', headers: opts.headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, json: text ? JSON.parse(text) : null });
      });
    });
    // The server may answer (413) and close before every chunk is sent.
    req.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'EPIPE' || (err as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(err)));
    for (const c of opts.chunks ?? []) req.write(c);
    req.end();
  });
}

async function startedParticipant(): Promise<{ p: Participant; id: string }> {
  server = await startTestServer();
  const p = new Participant(server.url);
  const id = (await p.call('POST', '/api/sessions', {})).json.session_id as string;
  return { p, id };
}

const strip = (h: IncomingMessage['headers']) => {
  const { date: _d, etag: _e, 'content-length': _l, connection: _c, 'keep-alive': _k, 'server-timing': _t, ...rest } = h;
  return rest;
};

describe('events lane', () => {
  it('answers with the same headers as the Express routes (helmet\'s, JSON), plus its Server-Timing, and stores the batch', async () => {
    const { p, id } = await startedParticipant();
    const body = JSON.stringify({ events: [event(id, 1), event(id, 2)] });
    const lane = await raw(server!.url, '/api/session/events', { headers: { 'content-type': 'application/json', cookie: p.cookie }, chunks: [body] });
    expect(lane.status).toBe(200);
    expect(lane.json).toEqual({ acked_seq: 2 });
    const health = await fetch(`${server!.url}/api/health`);
    expect(strip(lane.headers)).toEqual(strip(Object.fromEntries(health.headers)));
    expect(lane.headers['content-security-policy']).toContain("default-src 'self'");
    expect(lane.headers['content-type']).toBe('application/json; charset=utf-8');
    // The server's own time, for the benchmark and developer tools.
    expect(lane.headers['server-timing']).toMatch(/^app;dur=\d+\.\d$/);
    expect(sessionRecords(server!.dataDir, id).filter((r) => r.origin === 'client').map((r) => r.seq)).toEqual([1, 2]);
  });

  it('reads a body that arrives in many chunks, takes a query string, and leaves other paths to Express', async () => {
    const { p, id } = await startedParticipant();
    const body = JSON.stringify({ events: [event(id, 1)] });
    const chunks = body.match(/.{1,7}/gs)!;
    const r = await raw(server!.url, '/api/session/events?from=outbox', { headers: { 'content-type': 'application/json; charset=UTF-8', cookie: p.cookie }, chunks });
    expect(r).toMatchObject({ status: 200, json: { acked_seq: 1 } });
    const other = await raw(server!.url, '/api/session/events/', { headers: { 'content-type': 'application/json', cookie: p.cookie }, chunks: [body] });
    expect(other.status).toBe(404);
    expect(other.json.error).toBe('no such API route');
    expect((await p.call('GET', '/api/session/events')).status).toBe(404);
  });

  it('refuses bad bodies with the API\'s JSON errors and stores nothing', async () => {
    const { p, id } = await startedParticipant();
    const h = { 'content-type': 'application/json', cookie: p.cookie };
    const cases: [Record<string, string>, (string | Buffer)[], number, string][] = [
      [h, ['{"events": ['], 400, 'request body is not valid JSON'],
      [h, ['"just a string"'], 400, 'request body is not valid JSON'],
      [h, [''], 400, 'request body is not valid JSON'],
      [{ ...h, 'content-type': 'application/json; charset=latin1' }, ['{}'], 415, 'unsupported charset "LATIN1"'],
      [{ ...h, 'content-encoding': 'gzip' }, ['{}'], 415, 'unsupported content encoding "gzip"'],
      [{ ...h, 'content-length': String(BODY_LIMIT + 1) }, ['x'.repeat(BODY_LIMIT + 1)], 413, 'request body too large'],
      // No content-length (chunked): counted as it arrives.
      [h, Array.from({ length: 20 }, () => Buffer.alloc(64 * 1024, 32)), 413, 'request body too large'],
      [{ ...h, 'content-type': 'text/plain' }, [JSON.stringify({ events: [event(id, 1)] })], 400, 'invalid request body'],
      [h, [JSON.stringify({ events: [{ ...event(id, 1), seq: -1 }] })], 400, 'invalid request body'],
    ];
    for (const [headers, chunks, status, error] of cases) {
      const r = await raw(server!.url, '/api/session/events', { headers, chunks });
      expect({ status: r.status, error: r.json?.error }, JSON.stringify(headers)).toEqual({ status, error });
      expect(r.headers['content-security-policy']).toContain("default-src 'self'");
    }
    const invalid = await raw(server!.url, '/api/session/events', { headers: h, chunks: [JSON.stringify({ events: [{ ...event(id, 1), seq: -1 }] })] });
    expect(invalid.json.issues.join(' ')).toMatch(/seq/);
    // The 400 names the first invalid event's seq, so the client can set it aside and go on.
    const named = await raw(server!.url, '/api/session/events', { headers: h, chunks: [JSON.stringify({ events: [event(id, 1), { ...event(id, 2), t_wall: 1e308 }, event(id, 3)] })] });
    expect(named).toMatchObject({ status: 400, json: { seq: 2 } });
    expect(sessionRecords(server!.dataDir, id).filter((r) => r.origin === 'client')).toEqual([]);
    // Still usable afterwards.
    expect((await p.call('POST', '/api/session/events', { events: [event(id, 1)] })).json.acked_seq).toBe(1);
  });

  it('answers 401 to a batch without a valid token, before reading it', async () => {
    server = await startTestServer();
    const body = JSON.stringify({ events: [event('s0000000000000000', 1)] });
    for (const cookie of [undefined, 'nonolab_token=forged', 'other=1; nonolab_token="forged"']) {
      const r = await raw(server.url, '/api/session/events', { headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, chunks: [body] });
      expect(r.status).toBe(401);
      expect(typeof r.json.error).toBe('string');
    }
  });
});

describe('cookieValue', () => {
  const req = (cookie?: string) => ({ headers: cookie === undefined ? {} : { cookie } }) as IncomingMessage;
  it('reads one cookie as the cookie package does', () => {
    expect(cookieValue(req(), 'a')).toBeUndefined();
    expect(cookieValue(req('a=1'), 'a')).toBe('1');
    expect(cookieValue(req('b=2; a=1; a=3'), 'a')).toBe('1');
    expect(cookieValue(req('ab=2;a = "x y" '), 'a')).toBe('x y');
    expect(cookieValue(req('a=%41%42'), 'a')).toBe('AB');
    expect(cookieValue(req('a=%E0%A4%A'), 'a')).toBe('%E0%A4%A');
    expect(cookieValue(req('noequals; a=='), 'a')).toBe('=');
    expect(cookieValue(req('b=1'), 'a')).toBeUndefined();
  });
});
