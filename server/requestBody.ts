// Reading a request: the JSON body of every route, cookies, and answering before a body is read.
//
// POST /api/session/events is most of the server's traffic (every participant sends a batch every few hundred ms), so
// its cost per request is the study's capacity (eventsLane.ts). body-parser does general work on every request
// (content negotiation, charsets, inflation); the API needs one JSON body in UTF-8, read here for the events lane and
// the Express routes alike (`jsonBody`), with one set of answers to bad input (413 too large, 400 not JSON, 415 an
// encoding or charset it cannot read). Every route reads its cookie with `cookieValue` (the server needs two cookies,
// not a parser of all of them).
//
// An answer given before the body is read (413 by the declared length or as the body arrives, 401 without a session)
// ends with a lingering close (`endAnswer`): the answer goes out at once with `Connection: close`, the rest of the body
// is read and thrown away up to a bound, and only then does the connection close. Closing at once resets a connection
// the client is still writing to, and a reset throws away the answer before the client reads it: the browser sees a
// network error instead of the 413 that says what went wrong, and its outbox retries (nginx's lingering_close, for
// the same reason).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { z } from 'zod';
import { describeIssues } from '../shared/schema/config.ts';
import { HttpError } from './httpError.ts';

/** A request body checked against its schema; a 400 naming every problem otherwise. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body);
  if (!result.success) throw new HttpError(400, 'invalid request body', describeIssues(result.error.issues).split('\n'));
  return result.data;
}

const JSON_TYPE = /^application\/json\s*(?:;|$)/i;
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)"?/i;

/**
 * The request's JSON body, or `undefined` when it does not say it is JSON (the route's schema then reports what is
 * missing). Reads at most `limit` bytes: a longer body (by its content-length or by what arrives) is refused with 413
 * and not read further.
 */
export function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const type = req.headers['content-type'];
  // No body at all (as body-parser's `hasBody`): nothing to read.
  const noBody = req.headers['transfer-encoding'] === undefined && req.headers['content-length'] === undefined;
  if (!type || !JSON_TYPE.test(type) || noBody) {
    req.resume();
    return Promise.resolve(undefined);
  }
  const charset = CHARSET.exec(type)?.[1].toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') return Promise.reject(new HttpError(415, `unsupported charset "${charset.toUpperCase()}"`));
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity') return Promise.reject(new HttpError(415, `unsupported content encoding "${encoding}"`));
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return Promise.reject(new HttpError(413, 'request body too large'));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    let done = false;
    const finish = (err: HttpError | null, value?: unknown) => {
      if (done) return;
      done = true;
      req.off('data', onData).off('end', onEnd).off('error', onError).off('aborted', onAborted);
      if (err) reject(err);
      else resolve(value);
    };
    const onData = (chunk: Buffer) => {
      length += chunk.length;
      if (length > limit) {
        // Stop keeping it: the answer goes out now, and `endAnswer` reads off the rest.
        chunks.length = 0;
        req.pause();
        finish(new HttpError(413, 'request body too large'));
      } else chunks.push(chunk);
    };
    const onEnd = () => {
      const text = (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, length)).toString('utf8');
      // As body-parser's strict mode: only an object or an array is a JSON body.
      const first = /^[\x20\x09\x0a\x0d]*(.)/.exec(text)?.[1];
      if (first !== '{' && first !== '[') return finish(new HttpError(400, 'request body is not valid JSON'));
      try {
        finish(null, JSON.parse(text));
      } catch {
        finish(new HttpError(400, 'request body is not valid JSON'));
      }
    };
    const onError = () => finish(new HttpError(400, 'the request body could not be read'));
    const onAborted = () => finish(new HttpError(400, 'the request was aborted'));
    req.on('data', onData).on('end', onEnd).on('error', onError).on('aborted', onAborted);
  });
}

/** The body of every JSON route: `req.body` as `readJsonBody` reads it (undefined when the request says no JSON). */
export function jsonBody(limit: number): RequestHandler {
  return (req, _res, next) => {
    readJsonBody(req, limit).then(
      (body) => {
        req.body = body;
        next();
      },
      next,
    );
  };
}

/** What is still read, and thrown away, of a body after the answer went out (`endAnswer`). */
export const LINGER = {
  /** Bytes read after the answer before the connection is closed anyway. */
  bytes: 64 * 1024 * 1024,
  /** Longest time the connection is kept for it. */
  totalMs: 30_000,
  /** Longest wait for the next chunk. */
  idleMs: 5_000,
};

/**
 * Sends `text` as the whole answer (its headers set or written already) and ends the response. When the request's
 * body is not all read yet, the answer goes out now with `Connection: close` and the connection stays open, reading
 * and discarding the body, until it ends or `LINGER`'s bounds are reached: the client can finish writing and read
 * the answer. A response whose headers were already sent must already say `Connection: close` for this
 * (`res.shouldKeepAlive = false` before `writeHead`).
 */
export function endAnswer(req: IncomingMessage, res: ServerResponse, text: string): void {
  if (req.complete || req.destroyed) {
    res.end(text);
    return;
  }
  if (!res.headersSent) res.shouldKeepAlive = false;
  res.write(text);
  let discarded = 0;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    clearTimeout(total);
    clearTimeout(idle);
    req.off('data', onData).off('end', end).off('close', end).off('error', end);
    // Node closes the connection once the answer is flushed (Connection: close); past the bounds, whatever of the body
    // still arrives then meets a closed socket.
    res.end();
  };
  const total = setTimeout(end, LINGER.totalMs);
  let idle = setTimeout(end, LINGER.idleMs);
  const onData = (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > LINGER.bytes) return end();
    clearTimeout(idle);
    idle = setTimeout(end, LINGER.idleMs);
  };
  req.on('data', onData).on('end', end).on('close', end).on('error', end);
  req.resume();
}

/**
 * One cookie's value from the request's Cookie header, as the `cookie` package parses it (the first occurrence of the
 * name counts; surrounding quotes are dropped; %-escapes are decoded when valid).
 */
export function cookieValue(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    let value = part.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (!value.includes('%')) return value;
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return undefined;
}
