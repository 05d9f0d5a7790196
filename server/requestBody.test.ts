// Answers given before a body is read reach the client: an oversized or unauthorised upload, written slowly over a
// real socket by a client that only reads once it has written everything, gets its JSON error, not a reset.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { Participant, startTestServer, type TestServer } from '../tests/support/testServer.ts';
import { BODY_LIMIT } from './app.ts';

let server: TestServer;
let cookie: string;
beforeAll(async () => {
  server = await startTestServer();
  const p = new Participant(server.url);
  await p.call('POST', '/api/sessions', {});
  cookie = p.cookie;
});
afterAll(async () => {
  await server?.close();
});

interface Upload {
  /** Everything the server sent, as text. */
  answer: string;
  status: number;
  headers: Record<string, string>;
  json: any;
  /** A socket error seen while writing or reading (EPIPE, ECONNRESET), if any. */
  error?: string;
  /** Whether the server closed the connection after answering. */
  closed: boolean;
}

/**
 * Sends a request with `bodyBytes` bytes of body in 64 KB chunks, pausing between them, with a content-length or
 * chunked; reads nothing until the whole body is written (a client busy uploading), then reads the answer.
 */
async function slowUpload(path: string, bodyBytes: number, opts: { chunked?: boolean; cookie?: string } = {}): Promise<Upload> {
  const url = new URL(server.url);
  const socket = connect({ host: url.hostname, port: Number(url.port) });
  await once(socket, 'connect');
  const received: Buffer[] = [];
  let error: string | undefined;
  let closed = false;
  socket.on('error', (err: NodeJS.ErrnoException) => (error ??= err.code ?? err.message));
  socket.on('end', () => (closed = true));
  socket.pause();
  const head = [
    `POST ${path} HTTP/1.1`,
    `Host: ${url.host}`,
    'Content-Type: application/json',
    opts.chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${bodyBytes}`,
    ...(opts.cookie ? [`Cookie: ${opts.cookie}`] : []),
    '',
    '',
  ].join('\r\n');
  socket.write(head);
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  for (let sent = 0; sent < bodyBytes && !error; sent += chunk.length) {
    const part = chunk.subarray(0, Math.min(chunk.length, bodyBytes - sent));
    const framed = opts.chunked ? Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]) : part;
    if (!socket.write(framed)) await Promise.race([once(socket, 'drain'), once(socket, 'close')]);
    await sleep(1);
  }
  if (opts.chunked && !error) socket.write('0\r\n\r\n');
  socket.on('data', (c: Buffer) => received.push(c));
  socket.resume();
  if (!socket.destroyed) await Promise.race([once(socket, 'close'), sleep(10_000)]);
  socket.destroy();
  const answer = Buffer.concat(received).toString('utf8');
  const [top = '', body = ''] = answer.split('\r\n\r\n');
  const [statusLine, ...headerLines] = top.split('\r\n');
  const headers = Object.fromEntries(headerLines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  let json: any = null;
  try {
    json = JSON.parse(body);
  } catch {
    json = null;
  }
  return { answer, status: Number(statusLine?.split(' ')[1] ?? 0), headers, json, error, closed };
}

describe('answers before the body is read', () => {
  const big = [
    ['1.1 MB', Math.round(1.1 * 1024 * 1024)],
    ['20 MB', 20 * 1024 * 1024],
  ] as const;
  for (const [label, bytes] of big) {
    for (const chunked of [false, true]) {
      it(`a ${label} event batch (${chunked ? 'chunked' : 'with its content-length'}) written slowly reads back its 413`, async () => {
        const r = await slowUpload('/api/session/events', bytes, { chunked, cookie });
        expect({ status: r.status, error: r.json?.error, socketError: r.error }).toEqual({ status: 413, error: 'request body too large', socketError: undefined });
        expect(r.headers.connection).toBe('close');
        expect(r.headers['content-security-policy']).toContain("default-src 'self'");
        expect(r.closed).toBe(true);
      });
    }
  }

  it('an Express route answers an oversized body the same way (413, Connection: close, read back after the upload)', async () => {
    for (const path of ['/api/session/check', '/api/sessions', '/api/admin/login']) {
      const r = await slowUpload(path, 3 * BODY_LIMIT, { cookie });
      expect({ path, status: r.status, error: r.json?.error, socketError: r.error }).toEqual({ path, status: 413, error: 'request body too large', socketError: undefined });
      expect(r.headers.connection).toBe('close');
      expect(r.closed).toBe(true);
    }
  });

  it('a batch without a session is answered 401 before its body is read, and the client still reads the answer', async () => {
    const r = await slowUpload('/api/session/events', BODY_LIMIT - 1000);
    expect({ status: r.status, socketError: r.error }).toEqual({ status: 401, socketError: undefined });
    expect(typeof r.json.error).toBe('string');
  });

  it('the server is still serving afterwards, and a normal body keeps its connection alive', async () => {
    const res = await fetch(`${server.url}/api/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get('connection')).not.toBe('close');
  });
});
