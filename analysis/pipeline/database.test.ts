// `analyze --database`: the events read straight from the PostgreSQL store give the same tables as the NDJSON files.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { loadStudyConfig } from '../../node/studyConfig.ts';
import { PgStore } from '../../store/pgStore.ts';
import { simulateToDir } from '../simulate/index.ts';
import { runAnalysis, sessionFiles } from './index.ts';
import { tempDir } from '../../tests/support/tempDirs.ts';
import { databaseFor } from '../../tests/support/postgres.ts';
import { StudyRegistry } from '../../store/studies.ts';

const configPath = join(import.meta.dirname, 'fixtures', 'study.json');

/** Each session file of `logs` into the events table `client` sees (its search_path), as the PostgreSQL store keeps them. */
async function copyLogs(logs: string, client: pg.Client): Promise<void> {
  for (const file of sessionFiles(logs)) {
    const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.length > 0);
    const id = JSON.parse(lines[0]).session_id as string;
    const seqs = lines.map((l) => (JSON.parse(l).origin === 'client' ? JSON.parse(l).seq : null));
    await client.query('INSERT INTO events (session_id, n, seq, record, line) SELECT $1, t.i, t.seq, t.line::jsonb, t.line FROM unnest($2::text[], $3::int[]) WITH ORDINALITY AS t(line, seq, i)', [id, lines, seqs]);
  }
}

describe('analyze --database', () => {
  it('reads the events from PostgreSQL and writes the same tables as from the files', async () => {
    const dir = tempDir('nonolab-anadb-');
    const logs = join(dir, 'logs');
    simulateToDir({ participants: 12, seed: 77, study: loadStudyConfig(configPath) }, logs);
    const url = (await databaseFor('postgres'))!;
    await (await PgStore.open(url)).close(); // the store's tables
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await copyLogs(logs, client);
    await client.end();
    const fromFiles = await runAnalysis({ logs, puzzles: configPath, out: join(dir, 'files'), pauseThreshold: 'auto', report: false });
    // (The coding file sits in the logs directory; with the database it is named.)
    const codes = existsSync(join(logs, 'codes.csv')) ? join(logs, 'codes.csv') : undefined;
    const fromDb = await runAnalysis({ database: url, codes, puzzles: configPath, out: join(dir, 'db'), pauseThreshold: 'auto', report: false });
    expect(fromDb.summary.sessions).toEqual(fromFiles.summary.sessions);
    expect(fromDb.result.attempts.length).toBeGreaterThan(0);
    for (const table of readdirSync(join(dir, 'files')).filter((f) => f.endsWith('.csv')))
      expect(readFileSync(join(dir, 'db', table), 'utf8'), table).toBe(readFileSync(join(dir, 'files', table), 'utf8'));
    await expect(runAnalysis({ database: url, logs, puzzles: configPath, out: join(dir, 'x'), pauseThreshold: 'auto' })).rejects.toThrow(/one of them/);
  });

  it('reads a study beyond the first from its own schema (--study SLUG); an unknown study is named', async () => {
    const dir = tempDir('nonolab-anadb-study-');
    const logs = join(dir, 'logs');
    simulateToDir({ participants: 6, seed: 78, study: loadStudyConfig(configPath) }, logs);
    const url = (await databaseFor('postgres'))!;
    await (await PgStore.open(url)).close(); // the first study's tables, empty
    await (await PgStore.open(url, { schema: 'study_pilot' })).close();
    const registry = await StudyRegistry.openPostgres(url);
    const config = readFileSync(configPath, 'utf8');
    await registry.addStudy({ slug: 'main', study_id: 'main', title: 'Main', config_hash: 'a', config_json: config, first: true, now: 1, by: null });
    await registry.addStudy({ slug: 'pilot', study_id: 'pilot', title: 'Pilot', config_hash: 'b', config_json: config, now: 1, by: null });
    await registry.close();
    const client = new pg.Client({ connectionString: url, options: '-c search_path=study_pilot' });
    await client.connect();
    await copyLogs(logs, client);
    await client.end();
    const codes = existsSync(join(logs, 'codes.csv')) ? join(logs, 'codes.csv') : undefined;
    const fromFiles = await runAnalysis({ logs, puzzles: configPath, out: join(dir, 'files'), pauseThreshold: 'auto', report: false });
    const fromDb = await runAnalysis({ database: url, study: 'pilot', codes, puzzles: configPath, out: join(dir, 'db'), pauseThreshold: 'auto', report: false });
    expect(fromDb.summary.sessions).toEqual(fromFiles.summary.sessions);
    for (const table of readdirSync(join(dir, 'files')).filter((f) => f.endsWith('.csv')))
      expect(readFileSync(join(dir, 'db', table), 'utf8'), table).toBe(readFileSync(join(dir, 'files', table), 'utf8'));
    // The first study (its slug, or no --study) has no session here; an unknown slug is named.
    await expect(runAnalysis({ database: url, study: 'main', puzzles: configPath, out: join(dir, 'main'), pauseThreshold: 'auto', report: false })).rejects.toThrow(/no session has records/);
    await expect(runAnalysis({ database: url, study: 'nope', puzzles: configPath, out: join(dir, 'nope'), pauseThreshold: 'auto', report: false })).rejects.toThrow(/--study nope: no such study/);
    await expect(runAnalysis({ logs, study: 'pilot', puzzles: configPath, out: join(dir, 'x'), pauseThreshold: 'auto', report: false })).rejects.toThrow(/in a database only/);
  });
});
