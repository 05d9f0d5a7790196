// The hint panel's heading: where to look. A mistake hint names the wrong cell first, then the line its reason uses.
import { t } from '../i18n.ts';
export interface HintPlace {
  kind: 'error' | 'cell';
  row: number;
  col: number;
  line: { axis: 'row' | 'col'; index: number };
  /** False when the reason is in no line (a mistake only the solution shows, or reveal-only); absent: as before. */
  reason_in_line?: boolean;
}

export function hintHeading(hint: HintPlace): string {
  const line = { axis: hint.line.axis, line: hint.line.index + 1 };
  if (hint.kind !== 'error') return t('hint.headingLine', line);
  if (hint.reason_in_line === false) return t('hint.headingMistake', { row: hint.row + 1, col: hint.col + 1 });
  return t('hint.headingMistakeLine', { row: hint.row + 1, col: hint.col + 1, ...line });
}
