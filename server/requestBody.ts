// Reading a request without Express's generic middleware: the JSON body of the events route, and cookies.
//
// POST /api/session/events is most of the server's traffic (every participant sends a batch every few hundred ms), so
// its cost per request is the study's capacity (eventsLane.ts). body-parser does general work on every request
// (content negotiation, charsets, inflation); the events route needs one JSON body in UTF-8, read here with the same
// answers to bad input as the rest of the API (413 too large, 400 not JSON, 415 an encoding or charset it cannot
// read). Every route reads its cookie with `cookieValue` (the server needs two cookies, not a parser of all of them).
import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import { describeIssues } from '../shared/schema/config.ts';
import { HttpError } from './studyService.ts';

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
  if (!type || !JSON_TYPE.test(type)) {
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
        // Stop reading: the answer goes out and the connection closes with the rest unread.
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
