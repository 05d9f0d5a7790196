// From one session's log to its participant row (status, the six expertise items as numbers) and its free-text answers.
import type { LoggedClientEvent } from '../schema/event.ts';
import type { StudyConfig, SurveyItem } from '../schema/config.ts';
import type { LoggedSessionStatus } from '../schema/session.ts';
import { sessionEndOf } from '../log/rules.ts';
import { EXPERTISE_ITEMS, type AnswerRow, type ParticipantRow } from './schema.ts';
import type { SessionLog } from './session.ts';

const FREQUENCY = ['Never', 'Rarely (a few times a year)', 'Sometimes (about monthly)', 'Often (about weekly)', 'Very often (daily)'];

/** The six expertise items of the reference study (study-config/study.json), used when no config is given. */
export const DEFAULT_EXPERTISE_ITEMS: SurveyItem[] = [
  { type: 'scale', id: 'nonogram_skill', label: 'How skilled are you at Nonograms?', required: true, min: 1, max: 10 },
  { type: 'scale', id: 'puzzle_skill', label: 'How skilled are you at logic puzzles in general?', required: true, min: 1, max: 10 },
  { type: 'likert', id: 'nonogram_frequency', label: 'How often do you play Nonograms?', required: true, options: FREQUENCY },
  { type: 'likert', id: 'logic_frequency', label: 'How often do you play logic puzzles?', required: true, options: FREQUENCY },
  { type: 'multi', id: 'nonogram_sizes', label: 'Which Nonogram sizes have you tried?', required: false, options: ['5x5 or smaller', '10x10', '15x15', '20x20', '25x25 or larger'] },
  {
    type: 'multi',
    id: 'logic_types',
    label: 'Which kinds of logic puzzles do you know?',
    required: false,
    options: ['Sudoku', 'Kakuro', 'KenKen', 'Minesweeper', 'Slitherlink', 'Logic grid puzzles', 'Crosswords', 'Other'],
  },
];

/** The expertise items as the config defines them (any survey phase), falling back to the defaults per id. */
export function expertiseItems(config?: Pick<StudyConfig, 'phases'>): SurveyItem[] {
  const found = new Map<string, SurveyItem>();
  for (const phase of config?.phases ?? []) if (phase.kind === 'survey' || phase.kind === 'post_survey') for (const item of phase.items) found.set(item.id, item);
  return DEFAULT_EXPERTISE_ITEMS.map((d) => found.get(d.id) ?? d);
}

/**
 * An answer as a number: scale and number items as given; likert and single as the 1-based position among the
 * options (an unknown option gives null); multi as the count chosen (missing counts as none chosen when the survey
 * was submitted); anything else null.
 */
export function codeAnswer(item: SurveyItem, value: unknown, surveySubmitted: boolean): number | null {
  switch (item.type) {
    case 'scale':
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? value : null;
    case 'likert':
    case 'single': {
      if (typeof value !== 'string') return null;
      const i = item.options.indexOf(value);
      return i >= 0 ? i + 1 : null;
    }
    case 'multi':
      if (Array.isArray(value)) return value.length;
      return surveySubmitted && (value === undefined || value === null) ? 0 : null;
    default:
      return null;
  }
}

type SurveySubmit = Extract<LoggedClientEvent, { type: 'survey_submit' }>;

/**
 * How the log says the session ended: complete (a session_complete record), declined or screened out (a step_end
 * that ended it, shared/log/rules.ts), else incomplete (still active, or abandoned).
 */
export function loggedStatus(log: SessionLog): LoggedSessionStatus {
  if (log.server.some((s) => s.type === 'session_complete')) return 'complete';
  for (const e of log.client) {
    const end = sessionEndOf(e);
    if (end) return end;
  }
  return 'incomplete';
}

/** The participant row of one session; `attempts` is the number of attempt rows it gave. */
export function participantRow(log: SessionLog, attempts: number, items: readonly SurveyItem[] = DEFAULT_EXPERTISE_ITEMS): ParticipantRow {
  const surveys = log.client.filter((e): e is SurveySubmit => e.type === 'survey_submit');
  const byId = new Map(items.map((i) => [i.id, i]));
  const coded: Record<string, number | null> = {};
  for (const id of EXPERTISE_ITEMS) {
    const item = byId.get(id);
    // The last survey that carries the item (or, for optional multi items, the survey that carries its siblings).
    const holder = [...surveys].reverse().find((s) => id in s.payload.answers || EXPERTISE_ITEMS.some((o) => o in s.payload.answers));
    coded[id] = item && holder ? codeAnswer(item, holder.payload.answers[id], true) : null;
  }
  const start = log.server.find((s) => s.type === 'session_start');
  const any = log.server[0] ?? log.client[0];
  return {
    participant_id: log.session_id,
    status: loggedStatus(log),
    marks: log.marks.join(';'),
    config_hash: any?.config_hash ?? null,
    app_version: any?.app_version ?? null,
    started_at: start ? new Date(start.t_server).toISOString() : null,
    // The page's language (its session_start's lang); a log from before languages stamped none: English, as its page
    // was (the dashboard's participants.csv says the same: shared/signals/participantTable.ts).
    language: start?.type === 'session_start' ? (start.payload.lang ?? 'en') : null,
    attempts,
    nonogram_skill: coded.nonogram_skill,
    puzzle_skill: coded.puzzle_skill,
    nonogram_frequency: coded.nonogram_frequency,
    logic_frequency: coded.logic_frequency,
    nonogram_sizes: coded.nonogram_sizes,
    logic_types: coded.logic_types,
  };
}

/**
 * Free-text answers of every survey: `why_<puzzle>` answers carry their puzzle; other string answers that are not
 * one of an item's options (text items) are kept with a null puzzle. Empty strings are left out.
 */
export function answerRows(log: SessionLog, optionItems: readonly SurveyItem[] = DEFAULT_EXPERTISE_ITEMS): AnswerRow[] {
  const optionIds = new Set([...DEFAULT_EXPERTISE_ITEMS, ...optionItems].filter((i) => i.type !== 'text' && i.type !== 'number').map((i) => i.id));
  const rows: AnswerRow[] = [];
  for (const e of log.client) {
    if (e.type !== 'survey_submit') continue;
    for (const [key, value] of Object.entries(e.payload.answers)) {
      if (typeof value !== 'string' || value.trim() === '' || optionIds.has(key)) continue;
      const puzzle = key.startsWith('why_') ? key.slice(4) : null;
      rows.push({ participant_id: log.session_id, item: puzzle ? 'why' : key, puzzle_id: puzzle, text: value });
    }
  }
  return rows;
}
