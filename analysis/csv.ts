// CSV with papaparse, the CLI's one CSV reader and writer: output in a fixed column order with formula escaping on (a cell like "=cmd" cannot run in a spreadsheet); input with a header row, errors naming file and line.
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

/** A string cell as toCsv (papaparse with escapeFormulae) writes it, for writers that build rows themselves (ids are [A-Za-z0-9_-], so only a leading '-' needs escaping). */
export function safeCell(v: string): string {
  return /^[=+\-@\t\r]/.test(v) ? `"'${v.replace(/"/g, '""')}"` : /[",\n\r]/.test(v) || v.startsWith(' ') || v.endsWith(' ') ? `"${v.replace(/"/g, '""')}"` : v;
}

/** Any value as toCsv writes it in a cell (missing values and NaN empty, numbers to 10 significant digits). */
export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(Number.isInteger(v) ? v : Number(v.toPrecision(10))) : '';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return safeCell(typeof v === 'string' ? v : JSON.stringify(v));
}

/** A CSV table: its header (trimmed) and one string record per data row. */
export interface CsvTable {
  columns: string[];
  rows: Record<string, string>[];
}

/**
 * Parse CSV text with a header row (a byte-order mark dropped, header cells trimmed, empty lines skipped). A malformed
 * row is an error naming the file and its line (the header is line 1). A one-column file is fine (papaparse cannot
 * guess a delimiter there and says so; that is not an error).
 */
export function parseCsvTable(text: string, file: string): CsvTable {
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true, transformHeader: (h) => h.trim() });
  const serious = parsed.errors.filter((e) => e.code !== 'UndetectableDelimiter');
  if (serious.length) {
    const e = serious[0];
    throw new Error(`${file}: line ${(e.row ?? 0) + 2}: ${e.message}`);
  }
  return { columns: parsed.meta.fields ?? [], rows: parsed.data };
}

/** The records of a CSV text with a header (see parseCsvTable). */
export function parseCsv(text: string, file: string): Record<string, string>[] {
  return parseCsvTable(text, file).rows;
}
