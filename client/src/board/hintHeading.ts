// The hint panel's heading: where to look. A mistake hint names the wrong cell first, then the line its reason uses.
export interface HintPlace {
  kind: 'error' | 'cell';
  row: number;
  col: number;
  line: { axis: 'row' | 'col'; index: number };
  /** False when the reason is in no line (a mistake only the solution shows, or reveal-only); absent: as before. */
  reason_in_line?: boolean;
}

export function hintHeading(hint: HintPlace): string {
  const line = hint.line.axis === 'row' ? `Row ${hint.line.index + 1}` : `Column ${hint.line.index + 1}`;
  if (hint.kind !== 'error') return `Hint · ${line}`;
  if (hint.reason_in_line === false) return `Hint · Mistake at row ${hint.row + 1}, column ${hint.col + 1}`;
  return `Hint · Mistake at row ${hint.row + 1}, column ${hint.col + 1} · reason in ${line}`;
}
