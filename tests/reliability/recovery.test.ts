// Start-up recovery cases a SIGKILL can leave behind, made deterministically: a start whose session_start record never
// reached the log, and a torn line in the middle of a group-committed chunk.
import { afterEach, describe, expect, it } from 'vitest';
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Participant, event, playSteps, startTestServer, type TestServer } from '../support/testServer.ts';
import { readLogs, verifyStore } from './verify.ts';
import { Bot, HttpClient } from '../support/bots.ts';
import { defaultConfig } from '../support/server.ts';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('start-up recovery', () => {
  it('removes a session whose start never reached the log and gives its sequence back', async () => {
    server = await startTestServer();
    const dataDir = server.dataDir;
    const kept = new Participant(server.url);
    const keptSession = (await kept.call('POST', '/api/sessions', {})).json;
    const keptId = keptSession.session_id;
    await playSteps(kept, keptSession, defaultConfig(), 1); // consented: holds a sequence
    const lost = (await new Participant(server.url).call('POST', '/api/sessions', {})).json.session_id;
    await server.close();
    // The crash came after the SQLite commit and before the record: no file, or an empty one.
    rmSync(join(dataDir, 'sessions', `${lost}.ndjson`));
    server = await startTestServer({ dataDir });
    expect(await server.nonolab.store.session(lost)).toBeUndefined();
    expect((await server.nonolab.store.allSequences()).filter((s) => s.status !== 'free').map((s) => s.session_id)).toEqual([keptId]);
    const back = new Participant(server.url);
    back.cookie = kept.cookie;
    expect((await back.call('GET', '/api/session')).json.session_id).toBe(keptId);
    await server.close();
    writeFileSync(join(dataDir, 'sessions', `${keptId}.ndjson`), '');
    server = await startTestServer({ dataDir });
    expect(await server.nonolab.store.sessions()).toEqual([]);
    await server.close();
    server = null;
    expect(verifyStore(dataDir, readLogs(dataDir))).toEqual([]);
  });

  it('cuts a chunk torn in its middle back to the last whole line and takes the retry', async () => {
    server = await startTestServer();
    const dataDir = server.dataDir;
    const p = new Participant(server.url);
    const id = (await p.call('POST', '/api/sessions', {})).json.session_id;
    expect((await p.call('POST', '/api/session/events', { events: [event(id, 1), event(id, 2)] })).json.acked_seq).toBe(2);
    await server.close();
    // Seqs 3 and 4 were one chunk; the kill left seq 3 whole and half of seq 4.
    const line = (seq: number) => JSON.stringify({ ...event(id, seq), origin: 'client', t_server: 1, config_hash: 'x', app_version: 'x' });
    appendFileSync(join(dataDir, 'sessions', `${id}.ndjson`), `${line(3)}\n${line(4).slice(0, 40)}`);
    server = await startTestServer({ dataDir });
    const again = new Participant(server.url);
    again.cookie = p.cookie;
    expect((await again.call('GET', '/api/session')).json.acked_seq).toBe(3);
    const retry = await again.call('POST', '/api/session/events', { events: [event(id, 3), event(id, 4), event(id, 5)] });
    expect(retry.json.acked_seq).toBe(5);
    await server.close();
    server = null;
    const logs = readLogs(dataDir);
    expect(logs.get(id)!.records.filter((r) => r.origin === 'client').map((r) => r.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(verifyStore(dataDir, logs)).toEqual([]);
  });

  it('makes a completion whose record never reached the log active again, and the retry completes it once', async () => {
    server = await startTestServer();
    const dataDir = server.dataDir;
    const http = new HttpClient(server.url);
    const bot = new Bot({ http, config: defaultConfig(), seed: 7, noiseMoves: 0 });
    await bot.play();
    expect(bot.completionCode).toBeTruthy();
    http.close();
    await server.close();
    // The crash came after the completion's SQLite commit and before its record.
    const file = join(dataDir, 'sessions', `${bot.sessionId}.ndjson`);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(JSON.parse(lines.at(-1)!).type).toBe('session_complete');
    writeFileSync(file, lines.slice(0, -1).join('\n') + '\n');
    server = await startTestServer({ dataDir });
    expect((await server.nonolab.store.session(bot.sessionId))!.status).toBe('active');
    expect(await server.nonolab.store.completionOf(bot.sessionId)).toBeUndefined(); // the stored code goes with the status
    expect((await server.nonolab.store.allSequences()).find((s) => s.session_id === bot.sessionId)!.status).toBe('leased');
    const back = new Participant(server.url);
    back.cookie = bot.cookie;
    const done = await back.call('POST', '/api/session/complete', { last_seq: bot.events.length });
    expect(done.json.code).toBe(bot.completionCode);
    expect((await server.nonolab.store.session(bot.sessionId))!.status).toBe('complete');
    expect((await server.nonolab.store.completionOf(bot.sessionId))?.code).toBe(bot.completionCode);
    await server.close();
    server = null;
    const logs = readLogs(dataDir);
    expect(logs.get(bot.sessionId)!.records.filter((r) => r.type === 'session_complete')).toHaveLength(1);
    expect(verifyStore(dataDir, logs)).toEqual([]);
  });
});
