// POST /api/session/events, served beside Express rather than through it.
//
// Nearly every request a study receives is an event batch (each participant's outbox sends one every few hundred ms),
// so this route's cost per request is the study's capacity. Measured on the benchmark machine, Express's entry and
// router (request/response prototypes, layer matching, res.json) cost about 80 us of CPU per request, as much as
// the rest of the route's work without the fsync; so the node:http listener (`createNonolabServer().handler`) sends
// this one method and path here and everything else to the Express app. The answers are the same as Express's: the
// same security headers (helmet's, recorded once), the same JSON errors (`{ error, issues? }`), the same body limit.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { EventBatch } from '../shared/schema/api.ts';
import { ClientEvent } from '../shared/schema/event.ts';
import { cookieValue, endAnswer, parseBody, readJsonBody } from './requestBody.ts';
import { HttpError } from './httpError.ts';
import { STORE_UNAVAILABLE, storeUnavailable } from '../store/pgStore.ts';
import { type StudyService } from './studyService.ts';

export const EVENTS_PATH = '/api/session/events';

/** POST /api/session/events, with or without a query string (the path is matched exactly, as documented). */
export function isEventsRequest(req: IncomingMessage): boolean {
  if (req.method !== 'POST') return false;
  const url = req.url ?? '';
  return url === EVENTS_PATH || (url.startsWith(EVENTS_PATH) && url[EVENTS_PATH.length] === '?');
}

/** The seq of the first event in a batch that the schema refuses (when it has a usable one), else null. */
export function firstInvalidSeq(body: unknown): number | null {
  const events = (body as { events?: unknown } | null)?.events;
  if (!Array.isArray(events)) return null;
  for (const e of events) {
    if (ClientEvent.safeParse(e).success) continue;
    const seq = (e as { seq?: unknown } | null)?.seq;
    return typeof seq === 'number' && Number.isInteger(seq) && seq > 0 ? seq : null;
  }
  return null;
}

export interface EventsLaneOptions {
  service: StudyService;
  tokenCookie: string;
  bodyLimit: number;
  /** Headers every answer carries (the security headers), as name/value pairs. */
  headers: readonly (readonly [string, string | number | readonly string[]])[];
  log: (message: string) => void;
}

export function eventsLane(opts: EventsLaneOptions): (req: IncomingMessage, res: ServerResponse) => void {
  // writeHead's flat [name, value, name, value, ...] form; a header with several values is repeated.
  const base: string[] = opts.headers.flatMap(([name, value]) => (Array.isArray(value) ? value.flatMap((v: string) => [name, v]) : [name, String(value)]));
  // Server-Timing (a standard header browsers' developer tools show): the server's own time from the request to its
  // answer, fsync included. The benchmark sets it against the latency the bots see; the rest is the machine's.
  const reply = (req: IncomingMessage, res: ServerResponse, status: number, body: object, since: number) => {
    const text = JSON.stringify(body);
    // An answer before the body is all read (too large, no session) closes the connection after it (endAnswer).
    if (!req.complete) res.shouldKeepAlive = false;
    res.writeHead(status, [
      ...base,
      'content-type',
      'application/json; charset=utf-8',
      'content-length',
      String(Buffer.byteLength(text)),
      'server-timing',
      `app;dur=${(performance.now() - since).toFixed(1)}`,
    ]);
    endAnswer(req, res, text);
  };
  const handle = async (req: IncomingMessage, res: ServerResponse, since: number) => {
    // The token first: a request that names no session is answered without reading its body.
    const row = await opts.service.sessionForToken(cookieValue(req, opts.tokenCookie));
    const body = await readJsonBody(req, opts.bodyLimit);
    let batch: EventBatch;
    try {
      batch = parseBody(EventBatch, body);
    } catch (err) {
      // Name the first invalid event's seq, so the client can set that one aside and go on (outbox.ts).
      const seq = firstInvalidSeq(body);
      if (err instanceof HttpError && seq !== null) throw new HttpError(err.status, err.message, err.issues, { seq });
      throw err;
    }
    reply(req, res, 200, { acked_seq: await opts.service.appendEvents(row, batch.events) }, since);
  };
  return (req, res) => {
    const since = performance.now();
    handle(req, res, since).catch((err: unknown) => {
      if (res.headersSent) return;
      if (err instanceof HttpError) {
        reply(req, res, err.status, err.body(), since);
        return;
      }
      if (storeUnavailable(err)) {
        opts.log(`warning: POST /api/session/events: the database is unreachable (${(err as Error).message}); answered 503`);
        reply(req, res, 503, { error: STORE_UNAVAILABLE, code: 'store_unavailable' }, since);
        return;
      }
      opts.log(`error: ${(err as Error)?.stack ?? String(err)}`);
      reply(req, res, 500, { error: 'internal server error' }, since);
    });
  };
}
