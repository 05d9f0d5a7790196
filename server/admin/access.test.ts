// Tests of experimenter access over real HTTP: live streams end with their login; failed logins count per address.
// A logout (or an expired login) ends that login's streams; the address comes from X-Forwarded-For only when a proxy
// is trusted. On both stores (the logins live in the store).
import { afterAll, describe, expect, it } from 'vitest';
import { Participant, startTestServer, type TestServer } from '../../tests/support/testServer.ts';
import { PLAIN_HTTP, servingFromEnv, type Serving } from '../serving.ts';
import { STORES, type StoreKind } from '../../tests/support/postgres.ts';

const PASSWORD = 'access-test-password';
process.env.NONOLAB_ADMIN_PASSWORD = PASSWORD;

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});
async function start(opts: { store: StoreKind; serving?: Serving; clock?: () => number }): Promise<TestServer> {
  const s = await startTestServer(opts);
  servers.push(s);
  return s;
}

async function login(base: string, password = PASSWORD, headers: Record<string, string> = {}): Promise<{ status: number; cookie: string }> {
  const res = await fetch(`${base}/api/admin/login`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ password }) });
  await res.text();
  return { status: res.status, cookie: (res.headers.get('set-cookie') ?? '').split(';')[0] };
}

/** An open SSE stream: the events read so far, and a promise that settles when the server ends it. */
async function openStream(url: string, cookie: string) {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { cookie }, signal: controller.signal });
  expect(res.status).toBe(200);
  const events: string[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const ended = (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return 'ended' as const;
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const ev = /^event: (.*)$/m.exec(buffer.slice(0, cut))?.[1];
          if (ev) events.push(ev);
          buffer = buffer.slice(cut + 2);
        }
      }
    } catch {
      return 'aborted' as const;
    }
  })();
  return { events, ended, abort: () => controller.abort() };
}

const waitFor = async (condition: () => boolean) => {
  while (!condition()) await new Promise((r) => setTimeout(r, 10));
};

describe.each(STORES)('on %s', (store) => {
describe('live streams and the login they belong to', () => {
  it('logout ends every stream of that login at once; another login keeps its stream and its updates', async () => {
    const server = await start({ store });
    const a = await login(server.url);
    const b = await login(server.url);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    const p = new Participant(server.url);
    const { session_id } = (await p.call('POST', '/api/sessions', { mode: 'general' })).json;

    const aLive = await openStream(`${server.url}/api/admin/live`, a.cookie);
    const aMirror = await openStream(`${server.url}/api/admin/sessions/${session_id}/live`, a.cookie);
    const bLive = await openStream(`${server.url}/api/admin/live`, b.cookie);
    await waitFor(() => aLive.events.includes('snapshot') && aMirror.events.includes('records') && bLive.events.includes('snapshot'));

    const out = await fetch(`${server.url}/api/admin/logout`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: a.cookie }, body: '{}' });
    expect(out.status).toBe(200);
    expect(await aLive.ended).toBe('ended');
    expect(await aMirror.ended).toBe('ended');
    expect(aLive.events).toEqual(['snapshot']);

    // B still hears of a new participant; A's token opens nothing any more.
    await new Participant(server.url).call('POST', '/api/sessions', { mode: 'general' });
    await waitFor(() => bLive.events.includes('changes'));
    expect((await fetch(`${server.url}/api/admin/live`, { headers: { cookie: a.cookie } })).status).toBe(401);
    bLive.abort();
    expect(await bLive.ended).toBe('aborted');
  });

  it('a login that expires while its stream is open gets nothing more: the stream ends at its next send', async () => {
    let now = Date.UTC(2026, 0, 5, 9);
    const server = await start({ store, clock: () => now });
    const a = await login(server.url);
    const live = await openStream(`${server.url}/api/admin/live`, a.cookie);
    await waitFor(() => live.events.includes('snapshot'));
    // With the login still good, a change goes out.
    await new Participant(server.url).call('POST', '/api/sessions', { mode: 'general' });
    await waitFor(() => live.events.includes('changes'));
    const before = live.events.length;
    now += 13 * 3_600_000; // logins last 12 hours
    await new Participant(server.url).call('POST', '/api/sessions', { mode: 'general' });
    expect(await live.ended).toBe('ended');
    expect(live.events.length).toBe(before);
  });
});

describe('the login limiter counts failures per client address', () => {
  const failTenTimes = async (base: string, forwardedFor: (i: number) => string) => {
    for (let i = 0; i < 10; i++) expect((await login(base, 'wrong', { 'x-forwarded-for': forwardedFor(i) })).status).toBe(401);
  };

  it.each(['loopback', '1', 'true'])('behind a trusted proxy (NONOLAB_TRUST_PROXY=%s), one guesser is locked out and other experimenters behind the same proxy are not', async (trust) => {
    const server = await start({ store, serving: servingFromEnv({ NONOLAB_TRUST_PROXY: trust, NONOLAB_PUBLIC_URL: 'https://study.example.org' }) });
    await failTenTimes(server.url, () => '203.0.113.5');
    expect((await login(server.url, 'wrong', { 'x-forwarded-for': '203.0.113.5' })).status).toBe(429);
    expect((await login(server.url, PASSWORD, { 'x-forwarded-for': '203.0.113.5' })).status).toBe(429);
    // The proxy appends the real client: an address the guesser writes in front of it changes nothing.
    expect((await login(server.url, 'wrong', { 'x-forwarded-for': '198.51.100.7, 203.0.113.5' })).status).toBe(429);
    expect((await login(server.url, 'wrong', { 'x-forwarded-for': '198.51.100.7' })).status).toBe(401);
    expect((await login(server.url, PASSWORD, { 'x-forwarded-for': '198.51.100.7' })).status).toBe(200);
  });

  it('without a trusted proxy, X-Forwarded-For is ignored: a guesser cannot dodge the limit by writing it', async () => {
    const server = await start({ store, serving: PLAIN_HTTP });
    await failTenTimes(server.url, (i) => `192.0.2.${i + 1}`);
    expect((await login(server.url, PASSWORD, { 'x-forwarded-for': '192.0.2.99' })).status).toBe(429);
  });
});
});
