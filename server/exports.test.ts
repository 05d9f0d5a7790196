// Exports: event CSV with formula escaping, the raw NDJSON zip, and a psych-DS dataset; from either store.
import { afterEach, describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import JSZip from 'jszip';
import { Participant, event, startTestServer, type TestServer } from '../tests/support/testServer.ts';
import { receiveClient } from '../shared/schema/stamp.ts';
import type { ClientEvent } from '../shared/schema/event.ts';
import { EVENT_COLUMNS, exportEvents, exportPsychDs, exportRawZip, toCsv } from './exports.ts';
import { strictCsv } from '../tests/support/strictCsv.ts';
import { STORES, type StoreKind } from '../tests/support/postgres.ts';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function collect(run: (out: PassThrough) => Promise<void>): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await run(out);
  out.end();
  return Buffer.concat(chunks);
}

async function twoSessions(store: StoreKind): Promise<string[]> {
  server = await startTestServer({ store });
  const ids: string[] = [];
  for (let i = 0; i < 2; i++) {
    const p = new Participant(server.url);
    const id = (await p.call('POST', '/api/sessions', {})).json.session_id;
    ids.push(id);
    // Written to the log as the server stores accepted events (the intake would refuse these out of their steps).
    const stamp = { t_server: 1_780_000_000_000, config_hash: server.nonolab.study.hash, app_version: '0.0.0' };
    await server.nonolab.service.appendRecords(
      id,
      [
        event(id, 1, { type: 'move', step: 4, phase: 'puzzles', puzzle_id: 'x1', position: 1, payload: { move: { type: 'fill', row: 2, col: 3 } } }),
        event(id, 2, { type: 'move', step: 4, phase: 'puzzles', puzzle_id: 'x1', position: 1, payload: { move: { type: 'stroke', state: 'filled', cells: [[0, 0], [0, 1]] } } }),
        event(id, 3, { type: 'survey_submit', payload: { survey_id: 'post', answers: { comments: '=HYPERLINK("http://evil","x")', other: '+1+2' } } }),
      ].map((e) => receiveClient(e as ClientEvent, stamp)),
    );
  }
  return ids;
}

describe('toCsv', () => {
  it('ends every line with one newline, so a header streamed before its rows leaves no blank line', () => {
    const columns = ['a', 'b'];
    const streamed = toCsv([], columns, true) + toCsv([{ a: 1, b: 'x,y' }], columns, false) + toCsv([], columns, false) + toCsv([{ a: 2, b: 'line\nbreak' }], columns, false);
    expect(streamed).toBe('a,b\n1,"x,y"\n2,"line\nbreak"\n');
    expect(strictCsv(streamed).rows).toEqual([
      { a: '1', b: 'x,y' },
      { a: '2', b: 'line\nbreak' },
    ]);
    expect(toCsv([], columns, true)).toBe('a,b\n');
    expect(toCsv([{ a: '=1+1', b: null }], columns, true)).toBe('a,b\n"\'=1+1",\n');
  });
});

describe.each(STORES)('exports on %s', (store) => {
  it('writes one CSV row per event with formulae neutralised', async () => {
    const ids = await twoSessions(store);
    const csv = (await collect((out) => exportEvents(server!.nonolab.log, ids, out))).toString('utf8');
    const parsed = strictCsv(csv, 'events.csv');
    expect(parsed.header).toEqual(Object.keys(EVENT_COLUMNS));
    expect(parsed.rows).toHaveLength(2 * 4); // session_start + 3 client events, per session
    const fill = parsed.rows.find((r) => r.move_type === 'fill')!;
    expect([fill.row, fill.col, fill.puzzle_id, fill.position]).toEqual(['2', '3', 'x1', '1']);
    expect(parsed.rows.find((r) => r.move_type === 'stroke')!.stroke_cells).toBe('[[0,0],[0,1]]');
    // No cell of the CSV starts with a formula character.
    for (const row of parsed.rows) for (const value of Object.values(row)) expect(value).not.toMatch(/^[=+\-@]/);
    expect(csv).toContain('=HYPERLINK'); // kept, but inside an escaped cell
  });

  it('zips the raw NDJSON logs byte for byte (the files, or the lines the database holds)', async () => {
    const ids = await twoSessions(store);
    const zip = await JSZip.loadAsync(await collect((out) => exportRawZip(server!.nonolab.log, ids, out)));
    expect(Object.keys(zip.files).sort()).toEqual(ids.map((id) => `sessions/${id}.ndjson`).sort());
    const { readFileSync } = await import('node:fs');
    for (const id of ids) {
      const text = await zip.file(`sessions/${id}.ndjson`)!.async('string');
      if (store === 'sqlite') expect(text).toBe(readFileSync(join(server!.dataDir, 'sessions', `${id}.ndjson`), 'utf8'));
      else {
        const { default: pg } = await import('pg');
        const client = new pg.Client({ connectionString: server!.databaseUrl });
        await client.connect();
        const lines = (await client.query('SELECT line FROM events WHERE session_id = $1 ORDER BY n', [id])).rows.map((r: { line: string }) => `${r.line}\n`);
        await client.end();
        expect(lines).toHaveLength(4);
        expect(text).toBe(lines.join(''));
      }
    }
  });

  it('builds a psych-DS dataset with variableMeasured for every column', async () => {
    const ids = await twoSessions(store);
    const study = { id: 'nonogram-difficulty', title: 'How hard are Nonograms?', config_hash: 'abc' };
    const zip = await JSZip.loadAsync(await collect((out) => exportPsychDs(server!.nonolab.log, ids, study, out)));
    const description = JSON.parse(await zip.file('dataset_description.json')!.async('string'));
    expect(description['@type']).toBe('Dataset');
    expect(description.variableMeasured.map((v: { name: string }) => v.name)).toEqual(Object.keys(EVENT_COLUMNS));
    const dataFiles = Object.keys(zip.files).filter((f) => f.startsWith('data/'));
    expect(dataFiles.sort()).toEqual(ids.map((id) => `data/study-nonogramdifficulty_subject-${id}_data.csv`).sort());
    for (const f of dataFiles) expect(f).toMatch(/^data\/study-[A-Za-z0-9]+_subject-[A-Za-z0-9]+_data\.csv$/);
    for (const f of dataFiles) expect(strictCsv(await zip.file(f)!.async('string'), f).header).toEqual(Object.keys(EVENT_COLUMNS));
  });
});
