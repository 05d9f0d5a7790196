// Exports for experimenters, streamed session by session: the event trajectory as CSV, raw NDJSON as a zip, a psych-DS
// dataset, the wide participant table with its codebook. No export holds the study's events in memory (the participant
// table keeps one small row per participant); CSV goes through papaparse with formula escaping.
import { existsSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import Papa from 'papaparse';
import { ZipArchive } from 'archiver';
import { EventLog, type EventStore } from '../store/eventLog.ts';
import { isNonogramPuzzle, type StudyConfig } from '../shared/schema/config.ts';
import { AttemptRow, KIND_ATTEMPT_FIELDS, TRAJECTORY_CODEBOOK, TRAJECTORY_COLUMNS, sessionFromRecords, sessionSignals, sessionTrajectory, sudokuSignalPuzzle, type SignalPuzzle } from '../shared/signals/index.ts';
import { CODEBOOK_COLUMNS, addExpertiseZMean, participantCodebook, wideParticipantRow, type ParticipantMeta, type WideRow } from '../shared/signals/participantTable.ts';

/** One row per logged event: the columns, in order, with what each means (psych-DS variableMeasured). */
export const EVENT_COLUMNS: Record<string, string> = {
  session_id: 'Participant session identifier (random, not linked to identity)',
  origin: "Who wrote the record: 'client' (participant's browser) or 'server'",
  seq: "The client's sequence number within the session (1, 2, ...); empty for server records",
  type: 'Event type (move, step_start, step_end, survey_submit, rating, check, hint, ...)',
  step: 'Index of the step in the expanded study timeline',
  phase: 'Phase id from the study config',
  puzzle_id: 'Puzzle id (derived from its clues) when the event belongs to a puzzle',
  position: 'Position of the study puzzle in the participant sequence (1-3)',
  source: 'Input source: mouse, touch, keyboard or system',
  t_mono_ms: 'Client monotonic time (performance.now) in milliseconds',
  t_wall_ms: 'Client wall clock in milliseconds since the Unix epoch',
  t_server_ms: 'Server receive time in milliseconds since the Unix epoch',
  move_type: 'For moves: fill, cross, clear, stroke, reveal, undo, reset, hint, submit, skip',
  row: 'For single-cell moves: 0-based row',
  col: 'For single-cell moves: 0-based column',
  stroke_state: 'For strokes: the state painted (filled, crossed, unknown)',
  stroke_cells: 'For strokes: JSON list of [row, col] cells',
  payload: 'The full event payload as JSON',
  config_hash: 'Hash of the study config in force',
  app_version: 'nonolab version that wrote the record',
};

type Row = Record<string, string | number | null>;

function eventRow(record: Record<string, any>): Row {
  const move = record.type === 'move' ? record.payload?.move : undefined;
  return {
    session_id: record.session_id ?? null,
    origin: record.origin ?? null,
    seq: record.seq ?? null,
    type: record.type ?? null,
    step: record.step ?? null,
    phase: record.phase ?? null,
    puzzle_id: record.puzzle_id ?? record.payload?.puzzle_id ?? null,
    position: record.position ?? record.payload?.position ?? null,
    source: record.source ?? null,
    t_mono_ms: record.t_mono ?? null,
    t_wall_ms: record.t_wall ?? null,
    t_server_ms: record.t_server ?? null,
    move_type: move?.type ?? null,
    row: move?.row ?? null,
    col: move?.col ?? null,
    stroke_state: move?.type === 'stroke' ? move.state : null,
    stroke_cells: move?.type === 'stroke' ? JSON.stringify(move.cells) : null,
    payload: JSON.stringify(record.payload ?? null),
    config_hash: record.config_hash ?? null,
    app_version: record.app_version ?? null,
  };
}

/**
 * CSV text for rows, formula-escaped (a cell starting with = + - @ cannot run in a spreadsheet), every line ended by
 * one newline: papaparse ends a header-only text with its own newline and a text with rows without one, so the
 * newline is added only where it is missing (adding it always left a blank line after a streamed header).
 */
export function toCsv(rows: readonly Row[], columns: readonly string[], header: boolean): string {
  if (rows.length === 0 && !header) return '';
  const text = Papa.unparse({ fields: [...columns], data: rows.map((r) => columns.map((c) => r[c] ?? '')) }, { header, escapeFormulae: true, newline: '\n' });
  return text.length === 0 || text.endsWith('\n') ? text : text + '\n';
}

async function write(out: Writable, chunk: string | Buffer): Promise<void> {
  if (chunk.length === 0) return;
  if (!out.write(chunk)) await once(out, 'drain');
}

/** A session's records, one at a time, from whichever store holds them. */
function records(log: EventStore, sessionId: string): AsyncIterable<Record<string, any>> {
  return log.stream(sessionId);
}

/** Stream the event CSV of the given sessions (one file after another, in bounded chunks). */
export async function exportEvents(log: EventStore, sessionIds: Iterable<string>, out: Writable): Promise<void> {
  const columns = Object.keys(EVENT_COLUMNS);
  await write(out, toCsv([], columns, true));
  for (const id of sessionIds) {
    let batch: Row[] = [];
    for await (const r of records(log, id)) {
      batch.push(eventRow(r));
      if (batch.length >= 500) {
        await write(out, toCsv(batch, columns, false));
        batch = [];
      }
    }
    await write(out, toCsv(batch, columns, false));
  }
}

/** The study's puzzles as the signal functions want them (solutions stay on the server). */
function signalPuzzles(config: StudyConfig): Map<string, SignalPuzzle> {
  const map = new Map<string, SignalPuzzle>();
  for (const p of [...config.puzzles, ...config.practice_puzzles])
    if (!isNonogramPuzzle(p)) map.set(p.id, sudokuSignalPuzzle(p));
    else if (p.solution) map.set(p.id, { id: p.id, width: p.width, height: p.height, solution: p.solution });
  return map;
}

function guessingOptions(config: StudyConfig): readonly string[] | undefined {
  const phase = config.phases.find((p) => p.kind === 'puzzles');
  return phase?.kind === 'puzzles' ? phase.rating.guessing_options : undefined;
}

async function sessionLog(log: EventStore, id: string) {
  const all: Record<string, any>[] = [];
  for await (const r of records(log, id)) all.push(r);
  return all.length ? sessionFromRecords(all, `${id}.ndjson`) : null;
}

/**
 * One row per study attempt (warmup and tutorial left out), computed by the same signal functions the analysis
 * uses. Pauses need a threshold: pass one (e.g. from `nonolab analyze`), or the pause columns stay empty.
 */
export async function exportAttempts(log: EventStore, sessionIds: Iterable<string>, config: StudyConfig, out: Writable, opts: { pauseThresholdS?: number | null } = {}): Promise<void> {
  // (a study with a kind other than Nonogram: the kind and the pencil-mark columns too; a Nonogram study's as always)
  const kinded = config.puzzles.some((p) => !isNonogramPuzzle(p));
  const columns = Object.keys(AttemptRow.shape).filter((c) => kinded || !KIND_ATTEMPT_FIELDS.includes(c));
  const puzzles = signalPuzzles(config);
  await write(out, toCsv([], columns, true));
  for (const id of sessionIds) {
    const session = await sessionLog(log, id);
    if (!session) continue;
    const { attempts } = sessionSignals(session, puzzles, { pauseThresholdS: opts.pauseThresholdS ?? null, guessingOptions: guessingOptions(config) });
    await write(out, toCsv(attempts as unknown as Row[], columns, false));
  }
}

/**
 * trajectories.csv (docs/analysis.md): one row per cell change of every study attempt, in order, each labelled with
 * the reasoning that forces it, by the same code as `nonolab trajectories`; streamed one session at a time.
 */
export async function exportTrajectories(log: EventStore, sessionIds: Iterable<string>, config: StudyConfig, out: Writable): Promise<void> {
  const puzzles = signalPuzzles(config);
  await write(out, toCsv([], TRAJECTORY_COLUMNS, true));
  for (const id of sessionIds) {
    const session = await sessionLog(log, id);
    if (!session) continue;
    await write(out, toCsv(sessionTrajectory(session, puzzles) as unknown as Row[], TRAJECTORY_COLUMNS, false));
  }
}

/** The trajectory columns and what each means, as CSV (the zips' codebook entries for trajectories.csv). */
export function trajectoryCodebookCsv(): string {
  return toCsv(
    TRAJECTORY_COLUMNS.map((column) => ({ column, meaning: TRAJECTORY_CODEBOOK[column] })),
    ['column', 'meaning'],
    true,
  );
}

/** Looks up what SQLite knows of a session (link type, label, status); absent, the log's own record is used. */
export type MetaOf = (sessionId: string) => ParticipantMeta | undefined | Promise<ParticipantMeta | undefined>;

/** Builds wide participant rows from sessions' records, one session at a time; `rows()` fills in the z-mean. */
class ParticipantTable {
  private readonly puzzles: Map<string, SignalPuzzle>;
  private readonly built: WideRow[] = [];
  constructor(
    private readonly config: StudyConfig,
    private readonly metaOf: MetaOf = () => undefined,
  ) {
    this.puzzles = signalPuzzles(config);
  }
  async add(id: string, records: readonly Record<string, any>[]): Promise<void> {
    if (records.length === 0) return;
    const session = sessionFromRecords(records, `${id}.ndjson`);
    const { attempts } = sessionSignals(session, this.puzzles, { guessingOptions: guessingOptions(this.config) });
    this.built.push(wideParticipantRow(session, attempts, this.config, await this.metaOf(id)));
  }
  rows(): WideRow[] {
    addExpertiseZMean(this.built, this.config);
    return this.built;
  }
}

/** The wide participant rows of the given sessions, z-mean filled in (one small row per participant in memory). */
export async function participantRows(log: EventStore, sessionIds: Iterable<string>, config: StudyConfig, metaOf?: MetaOf): Promise<WideRow[]> {
  const table = new ParticipantTable(config, metaOf);
  for (const id of sessionIds) {
    const all: Record<string, any>[] = [];
    for await (const r of records(log, id)) all.push(r);
    await table.add(id, all);
  }
  return table.rows();
}

/**
 * One wide row per participant: session, link type, kiosk label, status, marks, times, completion code, every survey
 * and post-survey item by its config id, per puzzle position the puzzle, outcome, time, difficulty, guessing and why,
 * the expertise items coded as numbers and their z-mean. `codebookCsv` describes every column.
 */
export async function exportParticipants(log: EventStore, sessionIds: Iterable<string>, config: StudyConfig, out: Writable, metaOf?: MetaOf): Promise<void> {
  const columns = participantCodebook(config).map((c) => c.column);
  const rows = await participantRows(log, sessionIds, config, metaOf);
  await write(out, toCsv([], columns, true));
  for (let i = 0; i < rows.length; i += 500) await write(out, toCsv(rows.slice(i, i + 500), columns, false));
}

/** The codebook of the participant table as CSV: column, item id, phase, question text, type, options, scale. */
export function codebookCsv(config: StudyConfig): string {
  return toCsv(participantCodebook(config) as unknown as Row[], CODEBOOK_COLUMNS, true);
}

/** Rows already built (admin tables: panel ids, codes, funnel) as a CSV download. */
export async function exportRows(rows: readonly Row[], columns: readonly string[], out: Writable): Promise<void> {
  await write(out, toCsv([], columns, true));
  for (let i = 0; i < rows.length; i += 500) await write(out, toCsv(rows.slice(i, i + 500), columns, false));
}

async function finishZip(zip: ZipArchive, out: Writable): Promise<void> {
  const done = new Promise<void>((resolve, reject) => {
    out.on('finish', resolve);
    out.on('close', resolve);
    zip.on('error', reject);
  });
  await zip.finalize();
  await done;
}

/** The raw NDJSON files, one per session, as a zip, with the participant table's codebook beside them. */
export async function exportRawZip(log: EventStore, sessionIds: Iterable<string>, out: Writable, config?: StudyConfig): Promise<void> {
  const ids = [...sessionIds];
  const zip = new ZipArchive({ zlib: { level: 6 } });
  zip.pipe(out);
  if (config) {
    const entry = once(zip, 'entry');
    zip.append(codebookCsv(config), { name: 'codebook.csv' });
    await entry;
  }
  for (const id of ids) {
    if (log instanceof EventLog) {
      if (!existsSync(log.pathOf(id))) continue;
      const entry = once(zip, 'entry');
      zip.file(log.pathOf(id), { name: `sessions/${id}.ndjson` });
      await entry;
    } else {
      // A database's rows, written out as the NDJSON file the embedded store would hold (the same bytes).
      const lines: string[] = [];
      for await (const r of records(log, id)) lines.push(`${JSON.stringify(r)}\n`);
      if (lines.length === 0) continue;
      const entry = once(zip, 'entry');
      zip.append(lines.join(''), { name: `sessions/${id}.ndjson` });
      await entry;
    }
  }
  if (config) await appendTrajectories(zip, log, ids, config, 'trajectories.csv', 'trajectories-codebook.csv');
  await finishZip(zip, out);
}

/**
 * trajectories.csv of the sessions into a zip, with its codebook (when a name is given): the rows stream into the
 * zip's entry one session at a time (back-pressure through a pass-through), never the study's trajectories in memory.
 */
async function appendTrajectories(zip: ZipArchive, log: EventStore, ids: readonly string[], config: StudyConfig, name: string, codebookName: string | null): Promise<void> {
  const rows = new PassThrough();
  let entry = once(zip, 'entry');
  zip.append(rows, { name });
  try {
    await exportTrajectories(log, ids, config, rows);
  } finally {
    rows.end();
  }
  await entry;
  if (codebookName) {
    entry = once(zip, 'entry');
    zip.append(trajectoryCodebookCsv(), { name: codebookName });
    await entry;
  }
}

/** psych-DS keyword values allow letters and digits only. */
function keyword(value: string): string {
  return value.replace(/[^A-Za-z0-9]/g, '');
}

/** A codebook entry as one psych-DS description: the question, its options and how the value is coded. */
function codebookDescription(c: { question: string; type: string; options: string; scale: string; phase: string | null; item_id: string | null }): string {
  const parts = [c.question];
  if (c.item_id) parts.push(`(${c.phase ? `${c.phase}.` : ''}${c.item_id}, ${c.type})`);
  if (c.options) parts.push(`Options: ${c.options}.`);
  if (c.scale) parts.push(`Coded as: ${c.scale}.`);
  return parts.join(' ');
}

/**
 * A psych-DS dataset as a zip: dataset_description.json (schema.org Dataset with variableMeasured for every column of
 * every data file, the participant table's described from its codebook), data/study-<id>_subject-<id>_data.csv (one
 * trajectory file per session), and, given the config, data/study-<id>_table-participants_data.csv with codebook.csv
 * and data/study-<id>_table-trajectories_data.csv (cell changes labelled by reasoning) with trajectories-codebook.csv.
 */
export async function exportPsychDs(
  log: EventStore,
  sessionIds: Iterable<string>,
  study: { id: string; title: string; config_hash: string },
  out: Writable,
  participants?: { config: StudyConfig; metaOf?: MetaOf },
): Promise<void> {
  const zip = new ZipArchive({ zlib: { level: 6 } });
  zip.pipe(out);
  const ids = [...sessionIds];
  const codebook = participants ? participantCodebook(participants.config) : [];
  const variables = new Map<string, string>(Object.entries(EVENT_COLUMNS));
  for (const c of codebook) if (!variables.has(c.column)) variables.set(c.column, codebookDescription(c));
  if (participants) for (const column of TRAJECTORY_COLUMNS) if (!variables.has(column)) variables.set(column, `trajectories table: ${TRAJECTORY_CODEBOOK[column]}`);
  const description = {
    '@context': 'https://schema.org/',
    '@type': 'Dataset',
    name: study.title,
    description: `Event-level trajectories of the nonolab study '${study.id}' (config ${study.config_hash}); one file per participant session${participants ? ', one table with a row per participant (codebook.csv describes its columns), and one table of trajectories, a row per cell change labelled by its reasoning (trajectories-codebook.csv)' : ''}.`,
    schemaVersion: 'Psych-DS 0.4.0',
    variableMeasured: [...variables].map(([name, description]) => ({ '@type': 'PropertyValue', name, description })),
  };
  zip.append(JSON.stringify(description, null, 2), { name: 'dataset_description.json' });
  const columns = Object.keys(EVENT_COLUMNS);
  // The participant table is built from the same reading of each session (one small row each, kept until the end).
  const table = participants ? new ParticipantTable(participants.config, participants.metaOf) : null;
  for (const id of ids) {
    const rows: Row[] = [];
    const all: Record<string, any>[] = [];
    for await (const r of records(log, id)) {
      rows.push(eventRow(r));
      if (table) all.push(r);
    }
    await table?.add(id, all);
    const entry = once(zip, 'entry');
    zip.append(toCsv(rows, columns, true), { name: `data/study-${keyword(study.id)}_subject-${keyword(id)}_data.csv` });
    await entry; // one session in flight at a time: memory stays bounded however large the study
  }
  if (participants && table) {
    const rows = table.rows();
    let entry = once(zip, 'entry');
    zip.append(toCsv(rows, codebook.map((c) => c.column), true), { name: `data/study-${keyword(study.id)}_table-participants_data.csv` });
    await entry;
    entry = once(zip, 'entry');
    zip.append(codebookCsv(participants.config), { name: 'codebook.csv' });
    await entry;
    await appendTrajectories(zip, log, ids, participants.config, `data/study-${keyword(study.id)}_table-trajectories_data.csv`, 'trajectories-codebook.csv');
  }
  await finishZip(zip, out);
}
