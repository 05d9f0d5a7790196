// Reading tidy CSV files for the statistics commands (through the CLI's one CSV reader), with errors that name the file, line and field.
import { readFileSync } from 'node:fs';
import { parseCsvTable } from '../csv.ts';

export interface TidyCsv {
  file: string;
  columns: string[];
  /** Raw string cells, one record per data row; line numbers are 1-based and count the header. */
  rows: Record<string, string>[];
}

export function readTidyCsv(file: string): TidyCsv {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`${file}: cannot read (${(err as Error).message})`);
  }
  return parseTidyCsv(text, file);
}

export function parseTidyCsv(text: string, file = '<csv>'): TidyCsv {
  const { columns, rows } = parseCsvTable(text, file);
  if (columns.length === 0) throw new Error(`${file}: no header row`);
  return { file, columns, rows };
}

export function requireColumns(csv: TidyCsv, names: readonly string[]): void {
  const missing = names.filter((n) => !csv.columns.includes(n));
  if (missing.length) throw new Error(`${csv.file}: no column ${missing.map((m) => `"${m}"`).join(', ')} (columns: ${csv.columns.join(', ')})`);
}

/** A numeric column; empty/NA cells are an error unless allowMissing (then NaN). */
export function numericColumn(csv: TidyCsv, name: string, allowMissing = false): number[] {
  requireColumns(csv, [name]);
  return csv.rows.map((row, i) => {
    const cell = (row[name] ?? '').trim();
    if (cell === '' || cell === 'NA') {
      if (allowMissing) return NaN;
      throw new Error(`${csv.file}: line ${i + 2}: field "${name}" is empty`);
    }
    const v = Number(cell);
    if (!Number.isFinite(v)) throw new Error(`${csv.file}: line ${i + 2}: field "${name}" is not a number ("${cell}")`);
    return v;
  });
}

/** Runs a statistics command: JSON on stdout; a failure prints "nonolab NAME: message" on stderr and exits 1. */
export async function runStatsCommand(name: string, body: () => unknown | Promise<unknown>): Promise<void> {
  try {
    const out = await body();
    process.stdout.write(JSON.stringify(out, (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2) + '\n');
  } catch (err) {
    process.stderr.write(`nonolab ${name}: ${(err as Error).message}\n`);
    // Bad input (a missing file, a column, too few values): the CLI's one rule, exit code 2.
    process.exitCode = 2;
  }
}

/** Parses a positive integer option, naming it in the error. */
export function intOption(value: string | undefined, name: string, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  const v = Number(value);
  if (!Number.isInteger(v) || v < min) throw new Error(`${name} must be an integer >= ${min}, got '${value}'`);
  return v;
}
