// The wide participant table (one row per session, every survey item by its config id) and its codebook.
//
// The columns follow the config, so the table is described by a codebook rather than a fixed schema: session facts
// (link type, kiosk label, status, marks, times, completion code), then every item of every survey and post-survey
// phase under its config id (raw answers: a number for scale and number items, the option text for likert and single
// items, the chosen options joined by "; " for multi items, the text as typed for text items), then per puzzle
// position the puzzle, its outcome, time, difficulty rating, guessing answer and the "why" text, then the expertise
// items coded as numbers (codeAnswer) and their z-mean. An item id used by two phases is prefixed with the phase id
// the second time, so no column is lost. The z-mean needs every row: it is filled in by `addExpertiseZMean` once all
// rows are built (the rows are small: one per participant).
import type { StudyConfig, SurveyItem } from '../schema/config.ts';
import type { StoredSessionStatus } from '../schema/session.ts';
import type { LoggedClientEvent } from '../schema/event.ts';
import { zScores } from '../stats/composite.ts';
import { codeAnswer, expertiseItems, loggedStatus } from './participants.ts';
import { EXPERTISE_ITEMS, type AttemptRow } from './schema.ts';
import type { SessionLog } from './session.ts';

/** One column of the participant table, as the codebook describes it. */
export interface CodebookEntry {
  column: string;
  /** The survey item's config id (null for session facts and derived columns). */
  item_id: string | null;
  /** The phase the item belongs to. */
  phase: string | null;
  /** The question as shown, or what the column means. */
  question: string;
  /** scale, likert, single, multi, number, text; or the value kind of a derived column. */
  type: string;
  /** The answer options, joined by " | " ('' when free). */
  options: string;
  /** How the value is coded. */
  scale: string;
}

export const CODEBOOK_COLUMNS = ['column', 'item_id', 'phase', 'question', 'type', 'options', 'scale'] as const;

/** What the server knows of a session beyond its log (the SQLite row); absent, the log's session_start is used. */
export interface ParticipantMeta {
  mode: string | null;
  label: string | null;
  status: StoredSessionStatus | null;
}

export type WideRow = Record<string, string | number | null>;

const fact = (column: string, question: string, type: string, scale = ''): CodebookEntry => ({ column, item_id: null, phase: null, question, type, options: '', scale });

function itemScale(item: SurveyItem): string {
  switch (item.type) {
    case 'scale':
      return `integer ${item.min}${item.min_label ? ` (${item.min_label})` : ''} to ${item.max}${item.max_label ? ` (${item.max_label})` : ''}`;
    case 'number':
      return `${item.integer ? 'integer' : 'number'}${item.min !== undefined ? ` from ${item.min}` : ''}${item.max !== undefined ? ` to ${item.max}` : ''}`;
    case 'likert':
    case 'single':
      return 'the option text as shown';
    case 'multi':
      return 'the chosen options, joined by "; "';
    case 'text':
      return `free text (at most ${item.max_length} characters)`;
  }
}

function itemOptions(item: SurveyItem): string {
  return item.type === 'likert' || item.type === 'single' || item.type === 'multi' ? item.options.join(' | ') : '';
}

function expertiseScale(item: SurveyItem): string {
  if (item.type === 'likert' || item.type === 'single') return `1-based position among the options (1 = ${item.options[0]})`;
  if (item.type === 'multi') return 'number of options chosen (0 when none)';
  return 'the number as answered';
}

interface SurveyColumn {
  column: string;
  phase: string;
  item: SurveyItem;
}

function surveyColumns(config: Pick<StudyConfig, 'phases'>): SurveyColumn[] {
  const out: SurveyColumn[] = [];
  const used = new Set<string>();
  for (const phase of config.phases) {
    if (phase.kind !== 'survey' && phase.kind !== 'post_survey') continue;
    for (const item of phase.items) {
      const column = used.has(item.id) ? `${phase.id}_${item.id}` : item.id;
      used.add(column);
      out.push({ column, phase: phase.id, item });
    }
  }
  return out;
}

function puzzlePositions(config: Pick<StudyConfig, 'phases'>): number {
  const phase = config.phases.find((p) => p.kind === 'puzzles');
  return phase?.kind === 'puzzles' ? phase.count : 0;
}

/** Every column of the participant table, in order, with its codebook entry. */
export function participantCodebook(config: Pick<StudyConfig, 'phases'>): CodebookEntry[] {
  const entries: CodebookEntry[] = [
    fact('session_id', 'Participant session identifier (random, not linked to identity)', 'id'),
    fact('link_type', 'How the participant arrived: general link, lab kiosk, or a recruitment panel', 'category', 'general | kiosk | panel'),
    fact('kiosk_label', 'The participant label the experimenter typed on the lab kiosk (empty otherwise)', 'text'),
    fact('language', "The language the participant's page spoke (config `languages`: the link's ?lang= where the study declares it, else its default; en before studies had languages)", 'category', 'a language tag: en, de, ar, ...'),
    fact('status', "The session's status on the server", 'category', 'active | complete | declined | screened_out | abandoned'),
    fact('marks', "The experimenter's marks in the log (pilot, test, excluded), joined by ';'", 'text'),
    fact('started_at', 'When the session started (server clock, ISO 8601 UTC)', 'datetime'),
    fact('ended_at', 'When it completed, or its last record for a session that ended otherwise (empty while active)', 'datetime'),
    fact('config_hash', 'Hash of the study config in force', 'text'),
    fact('completion_code', 'The completion code the participant was given (empty unless complete)', 'text'),
    fact('attempts', 'Study puzzles attempted', 'integer'),
  ];
  for (const { column, phase, item } of surveyColumns(config)) entries.push({ column, item_id: item.id, phase, question: item.label, type: item.type, options: itemOptions(item), scale: itemScale(item) });
  const puzzlesPhase = config.phases.find((p) => p.kind === 'puzzles');
  const postSurvey = config.phases.find((p) => p.kind === 'post_survey');
  const rating = puzzlesPhase?.kind === 'puzzles' ? puzzlesPhase.rating : null;
  for (let k = 1; k <= puzzlePositions(config); k++) {
    const phaseId = puzzlesPhase?.id ?? null;
    entries.push({ ...fact(`puzzle_${k}`, `Puzzle id at position ${k} of the participant's sequence`, 'id'), phase: phaseId });
    entries.push({ ...fact(`outcome_${k}`, `How the attempt at position ${k} ended`, 'category', 'solved | skipped | timeout | incomplete'), phase: phaseId });
    entries.push({ ...fact(`time_s_${k}`, `Seconds spent on the puzzle at position ${k} (to the correct submission, the skip, or the end)`, 'number'), phase: phaseId });
    entries.push({
      column: `difficulty_${k}`,
      item_id: 'difficulty',
      phase: phaseId,
      question: rating?.difficulty_label ?? 'Difficulty rating',
      type: 'likert',
      options: rating?.difficulty_labels.join(' | ') ?? '',
      scale: 'integer 1 (first option) to 5 (last option), after any revision in the post-survey; empty: not rated',
    });
    entries.push({
      column: `guessing_${k}`,
      item_id: 'guessing',
      phase: phaseId,
      question: rating?.guessing_label ?? 'Guessing',
      type: 'single',
      options: rating?.guessing_options.join(' | ') ?? '',
      scale: 'the option text as shown',
    });
    entries.push({
      column: `why_${k}`,
      item_id: 'why',
      phase: postSurvey?.id ?? null,
      question: postSurvey?.kind === 'post_survey' ? postSurvey.why_label : 'Why this difficulty',
      type: 'text',
      options: '',
      scale: 'free text',
    });
  }
  entries.push({
    ...fact('guessing_mean_level', 'Mean of the guessing answers over the rated puzzles, as 1-based positions among the options (1 = the first option)', 'number'),
    options: rating?.guessing_options.join(' | ') ?? '',
  });
  for (const item of expertiseItems(config)) entries.push({ column: `expertise_${item.id}`, item_id: item.id, phase: null, question: item.label, type: item.type, options: itemOptions(item), scale: expertiseScale(item) });
  entries.push(
    fact(
      'expertise_z_mean',
      'Expertise composite: the mean of the expertise items\' z-scores (sample SD, over the participants in this export); an item constant or answered by fewer than two is left out',
      'number',
    ),
  );
  return entries;
}

type SurveySubmit = Extract<LoggedClientEvent, { type: 'survey_submit' }>;

function rawAnswer(item: SurveyItem, value: unknown): string | number | null {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return value.map(String).join('; ');
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  return String(value);
}

const iso = (ms: number | undefined | null): string | null => (typeof ms === 'number' && Number.isFinite(ms) ? new Date(ms).toISOString() : null);

/**
 * The wide row of one session. `attempts` are its attempt rows (sessionSignals); `meta` the server's row when known.
 * The expertise z-mean stays null here (see addExpertiseZMean).
 */
export function wideParticipantRow(log: SessionLog, attempts: readonly AttemptRow[], config: Pick<StudyConfig, 'phases'>, meta?: ParticipantMeta): WideRow {
  const row: WideRow = {};
  const start = log.server.find((s) => s.type === 'session_start');
  const complete = log.server.find((s) => s.type === 'session_complete');
  const startPayload = (start?.payload ?? {}) as { mode?: string; lang?: string };
  const fromLog = loggedStatus(log);
  const status = meta?.status ?? (fromLog === 'incomplete' ? 'active' : fromLog);
  const last = Math.max(...log.server.map((s) => s.t_server), ...log.client.map((e) => e.t_server));
  row.session_id = log.session_id;
  row.link_type = meta?.mode ?? startPayload.mode ?? null;
  row.kiosk_label = meta?.label ?? null;
  row.language = startPayload.lang ?? (start ? 'en' : null);
  row.status = status;
  row.marks = log.marks.join(';');
  row.started_at = iso(start?.t_server);
  row.ended_at = complete ? iso(complete.t_server) : status === 'active' ? null : iso(last);
  row.config_hash = (start ?? log.client[0])?.config_hash ?? null;
  row.completion_code = complete?.type === 'session_complete' ? complete.payload.code : null;
  row.attempts = attempts.length;

  // The last submission of each survey phase holds its answers.
  const surveys = log.client.filter((e): e is SurveySubmit => e.type === 'survey_submit');
  const submitted = (phase: string) => [...surveys].reverse().find((s) => s.phase === phase || s.payload.survey_id === phase);
  for (const { column, phase, item } of surveyColumns(config)) row[column] = rawAnswer(item, submitted(phase)?.payload.answers[item.id]);

  const post = config.phases.find((p) => p.kind === 'post_survey');
  const postAnswers = post ? submitted(post.id)?.payload.answers : undefined;
  const levels: number[] = [];
  for (let k = 1; k <= puzzlePositions(config); k++) {
    const a = attempts.find((x) => x.position === k);
    row[`puzzle_${k}`] = a?.puzzle_id ?? null;
    row[`outcome_${k}`] = a?.outcome ?? null;
    row[`time_s_${k}`] = a ? Math.round(a.time_s * 1000) / 1000 : null;
    row[`difficulty_${k}`] = a?.difficulty ?? null;
    row[`guessing_${k}`] = a?.guessing ?? null;
    const why = a ? postAnswers?.[`why_${a.puzzle_id}`] : undefined;
    row[`why_${k}`] = typeof why === 'string' ? why : null;
    if (a?.guessing_level != null) levels.push(a.guessing_level);
  }
  row.guessing_mean_level = levels.length ? levels.reduce((s, v) => s + v, 0) / levels.length : null;

  const holders = surveys.filter((s) => EXPERTISE_ITEMS.some((id) => id in s.payload.answers));
  const holder = holders.at(-1);
  for (const item of expertiseItems(config)) row[`expertise_${item.id}`] = holder ? codeAnswer(item, holder.payload.answers[item.id], true) : null;
  row.expertise_z_mean = null;
  return row;
}

/**
 * Fill `expertise_z_mean` of every row: each expertise item z-scored over the rows (sample SD, shared/stats/composite),
 * then each row's mean over the items it answered. An item that is constant or answered by fewer than two rows
 * carries no information here and is left out.
 */
export function addExpertiseZMean(rows: WideRow[], config: Pick<StudyConfig, 'phases'>): void {
  const columns = expertiseItems(config).map((i) => `expertise_${i.id}`);
  const z: number[][] = [];
  for (const column of columns) {
    const values = rows.map((r) => (typeof r[column] === 'number' ? (r[column] as number) : NaN));
    try {
      z.push(zScores(values).z);
    } catch {
      // constant or too few answers: left out
    }
  }
  rows.forEach((row, i) => {
    const present = z.map((col) => col[i]).filter((v) => Number.isFinite(v));
    row.expertise_z_mean = present.length ? present.reduce((s, v) => s + v, 0) / present.length : null;
  });
}
