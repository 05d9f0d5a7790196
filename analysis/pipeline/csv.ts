// CSV output with papaparse: fixed column order, formula escaping on (a cell like "=cmd" cannot run in a spreadsheet).
import Papa from 'papaparse';

export type CsvValue = string | number | boolean | null | undefined;

/** Rows to CSV text with the given columns (missing values and NaN as empty cells). */
export function toCsv(rows: readonly Record<string, unknown>[], columns: readonly string[]): string {
  const data = rows.map((r) =>
    columns.map((c) => {
      const v = r[c];
      if (v === null || v === undefined || (typeof v === 'number' && !Number.isFinite(v))) return '';
      if (typeof v === 'number') return Number.isInteger(v) ? v : Number(v.toPrecision(10));
      if (typeof v === 'boolean' || typeof v === 'string') return v;
      return JSON.stringify(v);
    }),
  );
  return Papa.unparse({ fields: [...columns], data }, { escapeFormulae: true, newline: '\n' }) + '\n';
}

/** Parse CSV text with a header into string records (empty lines skipped); errors name the line. */
export function parseCsv(text: string, file: string): Record<string, string>[] {
  const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
  if (parsed.errors.length) {
    const e = parsed.errors[0];
    throw new Error(`${file}:${(e.row ?? 0) + 2}: ${e.message}`);
  }
  return parsed.data;
}
