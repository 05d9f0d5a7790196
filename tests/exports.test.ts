// Cross-module: the server's attempt and participant exports on a simulated study, read back by a strict CSV reader.
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { readFileSync } from 'node:fs';
import { simulateToDir } from '../analysis/simulate/index.ts';
import { runAnalysis } from '../analysis/pipeline/index.ts';
import { loadStudyConfig } from '../node/studyConfig.ts';
import { EventLog } from '../store/eventLog.ts';
import JSZip from 'jszip';
import { exportAttempts, exportParticipants, exportPsychDs, exportRawZip, exportTrajectories } from '../server/exports.ts';
import { AttemptRow, KIND_ATTEMPT_FIELDS, TRAJECTORY_COLUMNS } from '../shared/signals/index.ts';
import { participantCodebook } from '../shared/signals/participantTable.ts';
import { expertiseItems } from '../shared/signals/participants.ts';
import { tempDir } from './support/tempDirs.ts';
import { strictCsv } from './support/strictCsv.ts';

async function csv(run: (out: PassThrough) => Promise<void>): Promise<Record<string, string>[]> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await run(out);
  return strictCsv(Buffer.concat(chunks).toString('utf8')).rows;
}

describe('attempt and participant exports', () => {
  it('give three attempts per participant, and one wide participant row each with every survey item and the z-mean', async () => {
    const study = loadStudyConfig(join(import.meta.dirname, '..', 'study-config', 'study.json'));
    const dir = tempDir('nonolab-export-');
    simulateToDir({ participants: 6, seed: 5, study }, dir);
    const log = new EventLog(join(dir, 'sessions'));
    const ids = readdirSync(join(dir, 'sessions')).map((f) => f.replace('.ndjson', ''));
    const attempts = await csv((out) => exportAttempts(log, ids, study.config, out, { pauseThresholdS: 2.36 }));
    // a Nonogram study's export: every field of the schema but the ones only a study of another kind has
    expect(Object.keys(attempts[0])).toEqual(Object.keys(AttemptRow.shape).filter((c) => !KIND_ATTEMPT_FIELDS.includes(c)));
    expect(attempts).toHaveLength(6 * 3);
    for (const id of ids) expect(attempts.filter((a) => a.participant_id === id).map((a) => a.position).sort()).toEqual(['1', '2', '3']);
    const poolIds = new Set(study.config.puzzles.map((p) => p.id));
    expect(attempts.every((a) => poolIds.has(a.puzzle_id))).toBe(true);
    expect(attempts.every((a) => a.pauses !== '')).toBe(true);
    const participants = await csv((out) => exportParticipants(log, ids, study.config, out));
    expect(Object.keys(participants[0])).toEqual(participantCodebook(study.config).map((c) => c.column));
    expect(participants.map((p) => p.session_id).sort()).toEqual([...ids].sort());
    const surveyItems = study.config.phases.flatMap((p) => (p.kind === 'survey' || p.kind === 'post_survey' ? p.items.map((i) => i.id) : []));
    for (const id of surveyItems) expect(Object.keys(participants[0])).toContain(id);
    const byId = new Map(attempts.map((a) => [`${a.participant_id}/${a.position}`, a]));
    for (const p of participants) {
      expect(Number(p.nonogram_skill)).toBeGreaterThanOrEqual(1);
      expect(p.nonogram_skill).toBe(p.expertise_nonogram_skill);
      expect(Number(p.attempts)).toBe(3);
      expect(p.status).toBe('complete');
      expect(p.completion_code).toBe(study.config.completion.code);
      for (const k of [1, 2, 3]) {
        const a = byId.get(`${p.session_id}/${k}`)!;
        expect([p[`puzzle_${k}`], p[`difficulty_${k}`], p[`guessing_${k}`]]).toEqual([a.puzzle_id, a.difficulty, a.guessing]);
      }
    }
    // The z-mean, recomputed here: each expertise item z-scored over the six (sample SD), then each row's mean.
    const items = expertiseItems(study.config).map((i) => `expertise_${i.id}`);
    const z = items.map((col) => {
      const xs = participants.map((p) => Number(p[col]));
      const m = xs.reduce((s, x) => s + x, 0) / xs.length;
      const sd = Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1));
      return sd > 0 ? xs.map((x) => (x - m) / sd) : null;
    });
    participants.forEach((p, i) => {
      const zs = z.filter((col) => col !== null).map((col) => col![i]);
      expect(Number(p.expertise_z_mean)).toBeCloseTo(zs.reduce((s, v) => s + v, 0) / zs.length, 9);
    });
  });

  it('agree with the analysis: the same attempts, value for value, as `nonolab analyze` writes at the same pause threshold', async () => {
    const studyFile = join(import.meta.dirname, '..', 'study-config', 'study.json');
    const study = loadStudyConfig(studyFile);
    const dir = tempDir('nonolab-export-');
    simulateToDir({ participants: 8, seed: 11, study }, dir);
    const ids = readdirSync(join(dir, 'sessions')).map((f) => f.replace('.ndjson', ''));
    const exported = await csv((out) => exportAttempts(new EventLog(join(dir, 'sessions')), ids, study.config, out, { pauseThresholdS: 2.36 }));
    const out = tempDir('nonolab-export-analysis-');
    await runAnalysis({ logs: dir, puzzles: studyFile, out, pauseThreshold: 2.36, report: false, parallel: 1 });
    const analysed = strictCsv(readFileSync(join(out, 'attempts.csv'), 'utf8')).rows;
    expect(analysed).toHaveLength(exported.length);
    const key = (r: Record<string, string>) => `${r.participant_id}/${r.position}`;
    const byKey = new Map(analysed.map((r) => [key(r), r]));
    const shared = Object.keys(exported[0]).filter((c) => c in analysed[0]);
    // Every column of the export is one the analysis writes too, and the measures that matter are among them.
    expect(shared).toEqual(Object.keys(exported[0]));
    for (const col of ['time_s', 'pauses', 'pause_time_s', 'errors', 'moves', 'difficulty']) expect(shared).toContain(col);
    let compared = 0;
    for (const e of exported) {
      const a = byKey.get(key(e));
      expect(a, key(e)).toBeDefined();
      for (const col of shared) {
        const [x, y] = [e[col], a![col]];
        if (x !== '' && y !== '' && Number.isFinite(Number(x)) && Number.isFinite(Number(y))) expect(Number(y), `${key(e)} ${col}`).toBeCloseTo(Number(x), 6);
        else expect(y, `${key(e)} ${col}`).toBe(x);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(8 * 3 * 10);
    // Not vacuous: the simulated participants paused and erred.
    expect(exported.some((e) => Number(e.pauses) > 0)).toBe(true);
  });
});

describe('trajectory exports', () => {
  it('give the trajectories `nonolab analyze` writes, row for row, alone and in the raw and psych-DS zips with their codebook', async () => {
    const studyFile = join(import.meta.dirname, '..', 'study-config', 'study.json');
    const study = loadStudyConfig(studyFile);
    const dir = tempDir('nonolab-export-traj-');
    simulateToDir({ participants: 4, seed: 12, study }, dir);
    const ids = readdirSync(join(dir, 'sessions')).map((f) => f.replace('.ndjson', '')).sort();
    const log = new EventLog(join(dir, 'sessions'));
    const exported = await csv((out) => exportTrajectories(log, ids, study.config, out));
    const out = tempDir('nonolab-export-traj-analysis-');
    await runAnalysis({ logs: dir, puzzles: studyFile, out, pauseThreshold: 2.36, report: false, parallel: 1 });
    const analysed = strictCsv(readFileSync(join(out, 'trajectories.csv'), 'utf8')).rows;
    expect(exported.length).toBeGreaterThan(100);
    const key = (r: Record<string, string>) => `${r.participant_id}/${r.attempt}/${r.change}`;
    const byKey = new Map(analysed.map((r) => [key(r), r]));
    expect(analysed).toHaveLength(exported.length);
    for (const e of exported) {
      const a = byKey.get(key(e))!;
      expect(a, key(e)).toBeDefined();
      for (const col of TRAJECTORY_COLUMNS) {
        const [x, y] = [e[col], a[col]];
        if (x !== '' && Number.isFinite(Number(x))) expect(Number(y), `${key(e)} ${col}`).toBeCloseTo(Number(x), 6);
        else expect(y.toLowerCase(), `${key(e)} ${col}`).toBe(x.toLowerCase());
      }
    }
    expect(new Set(exported.map((r) => r.reasoning))).toContain('line');

    const bytes = async (run: (o: PassThrough) => Promise<void>) => {
      const o = new PassThrough();
      const chunks: Buffer[] = [];
      o.on('data', (c: Buffer) => chunks.push(c));
      await run(o);
      return Buffer.concat(chunks);
    };
    const alone = (await bytes((o) => exportTrajectories(log, ids, study.config, o))).toString('utf8');
    const raw = await JSZip.loadAsync(await bytes((o) => exportRawZip(log, ids, o, study.config)));
    expect(await raw.file('trajectories.csv')!.async('string')).toBe(alone);
    const codebook = strictCsv(await raw.file('trajectories-codebook.csv')!.async('string')).rows;
    expect(codebook.map((r) => r.column)).toEqual([...TRAJECTORY_COLUMNS]);
    for (const r of codebook) expect(r.meaning.length, r.column).toBeGreaterThan(10);
    const psych = await JSZip.loadAsync(await bytes((o) => exportPsychDs(log, ids, { id: 'nono-1', title: 'T', config_hash: 'h' }, o, { config: study.config })));
    expect(await psych.file('data/study-nono1_table-trajectories_data.csv')!.async('string')).toBe(alone);
    const names = JSON.parse(await psych.file('dataset_description.json')!.async('string')).variableMeasured.map((v: { name: string }) => v.name);
    for (const column of TRAJECTORY_COLUMNS) expect(names, column).toContain(column);
    // One session alone: its rows only.
    const one = strictCsv((await bytes((o) => exportTrajectories(log, [ids[0]], study.config, o))).toString('utf8')).rows;
    expect(one.length).toBeGreaterThan(0);
    expect(one).toEqual(strictCsv(alone).rows.filter((r) => r.participant_id === ids[0]));
  });
});
