// Every key of the hints' catalogue (hints/en.ts): what a study may override under \`languages.messages\` besides the
// page's catalogue (shared/i18n/keys.ts). Kept apart from the texts so the config check carries no hint sentences;
// hints.test.ts checks it is exactly the English catalogue's keys.
export const HINT_MESSAGE_KEYS = [
  'hint.cell', 'hint.list.and', 'hint.list.comma', 'hint.list.semicolon', 'hint.heading', 'hint.headingMistake',
  'hint.headingMistakeReason', 'hint.nonogram.line', 'hint.nonogram.value', 'hint.nonogram.foothold-empty',
  'hint.nonogram.foothold-exact', 'hint.nonogram.overlap', 'hint.nonogram.edge', 'hint.nonogram.edge-runs',
  'hint.nonogram.cross-reference', 'hint.nonogram.cross-reference-one', 'hint.nonogram.probing',
  'hint.nonogram.reveal', 'hint.nonogram.reveal-only', 'hint.nonogram.mistake-count', 'hint.nonogram.mistake-run',
  'hint.nonogram.mistake-foothold-empty', 'hint.nonogram.mistake-foothold-full',
  'hint.nonogram.mistake-foothold-exact', 'hint.nonogram.mistake-overlap-covered',
  'hint.nonogram.mistake-edge-covers', 'hint.nonogram.mistake-edge-short', 'hint.nonogram.mistake-edge-runs',
  'hint.nonogram.mistake-cross-reference', 'hint.nonogram.mistake-cross-reference-one',
  'hint.nonogram.mistake-probing', 'hint.nonogram.mistake-solution', 'hint.nonogram.mistake-reveal-only',
  'hint.nonogram.fix', 'hint.sudoku.unit', 'hint.sudoku.unitShort', 'hint.sudoku.lines', 'hint.sudoku.linesWord',
  'hint.sudoku.cellsInRow', 'hint.sudoku.cellsInCol', 'hint.sudoku.removal', 'hint.sudoku.the-digit-at',
  'hint.sudoku.naked-single-held', 'hint.sudoku.naked-single-ruled', 'hint.sudoku.naked-single-held-ruled',
  'hint.sudoku.hidden-single-last', 'hint.sudoku.hidden-single-blocked', 'hint.sudoku.hidden-single-blocked-ruled',
  'hint.sudoku.hidden-single-ruled', 'hint.sudoku.pointing', 'hint.sudoku.naked-set', 'hint.sudoku.hidden-set',
  'hint.sudoku.fish', 'hint.sudoku.xy-wing', 'hint.sudoku.no-candidate', 'hint.sudoku.no-place',
  'hint.sudoku.duplicate', 'hint.sudoku.fix', 'hint.sudoku.conflict-both-wrong', 'hint.sudoku.conflict',
  'hint.sudoku.contradiction-now', 'hint.sudoku.contradiction-forced', 'hint.sudoku.solution',
  'hint.sudoku.wrong-reveal-only', 'hint.sudoku.clash', 'hint.sudoku.broken-no-candidate',
  'hint.sudoku.broken-no-place', 'hint.sudoku.reveal-only', 'hint.sudoku.reveal', 'hint.sudoku.stuck',
] as const;
export type HintMessageKey = (typeof HINT_MESSAGE_KEYS)[number];

const KEYS: ReadonlySet<string> = new Set(HINT_MESSAGE_KEYS);
export const isHintMessageKey = (key: string): key is HintMessageKey => KEYS.has(key);
