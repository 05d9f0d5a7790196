// Cross-module: the server's attempt and participant exports agree with the analysis pipeline on a simulated study.
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import Papa from 'papaparse';
import { simulateToDir } from '../analysis/simulate/index.ts';
import { loadStudyConfig } from '../server/studyConfig.ts';
import { EventLog } from '../server/eventLog.ts';
import { exportAttempts, exportParticipants } from '../server/exports.ts';
import { AttemptRow, ParticipantRow } from '../shared/signals/index.ts';
import { tempDir } from './support/tempDirs.ts';

async function csv(run: (out: PassThrough) => Promise<void>): Promise<Record<string, string>[]> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await run(out);
  return Papa.parse<Record<string, string>>(Buffer.concat(chunks).toString('utf8'), { header: true, skipEmptyLines: true }).data;
}

describe('attempt and participant exports', () => {
  it('give three attempts per participant and the six expertise items, in the signal schemas', async () => {
    const study = loadStudyConfig(join(import.meta.dirname, '..', 'study-config', 'study.json'));
    const dir = tempDir('nonolab-export-');
    simulateToDir({ participants: 6, seed: 5, study }, dir);
    const log = new EventLog(join(dir, 'sessions'));
    const ids = readdirSync(join(dir, 'sessions')).map((f) => f.replace('.ndjson', ''));
    const attempts = await csv((out) => exportAttempts(log, ids, study.config, out, { pauseThresholdS: 2.36 }));
    expect(Object.keys(attempts[0])).toEqual(Object.keys(AttemptRow.shape));
    expect(attempts).toHaveLength(6 * 3);
    for (const id of ids) expect(attempts.filter((a) => a.participant_id === id).map((a) => a.position).sort()).toEqual(['1', '2', '3']);
    const poolIds = new Set(study.config.puzzles.map((p) => p.id));
    expect(attempts.every((a) => poolIds.has(a.puzzle_id))).toBe(true);
    expect(attempts.every((a) => a.pauses !== '')).toBe(true);
    const participants = await csv((out) => exportParticipants(log, ids, study.config, out));
    expect(Object.keys(participants[0])).toEqual(Object.keys(ParticipantRow.shape));
    expect(participants.map((p) => p.participant_id).sort()).toEqual([...ids].sort());
    for (const p of participants) {
      expect(Number(p.nonogram_skill)).toBeGreaterThanOrEqual(1);
      expect(Number(p.attempts)).toBe(3);
    }
  });
});
