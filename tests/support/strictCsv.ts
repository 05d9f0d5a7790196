// Test support: read a CSV the way a strict reader would (papaparse, nothing skipped) and fail on anything sloppy.
import Papa from 'papaparse';

/**
 * Parse `text` with papaparse (delimiter ',', no empty lines skipped) and require: no parse errors, one header with
 * unique names, every line ended by one newline, no empty row anywhere, every row as wide as the header. Returns the
 * rows as objects keyed by the header.
 */
export function strictCsv(text: string, what = 'csv'): { header: string[]; rows: Record<string, string>[] } {
  if (!text.endsWith('\n')) throw new Error(`${what}: the last line has no newline`);
  const parsed = Papa.parse<string[]>(text.slice(0, -1), { delimiter: ',', skipEmptyLines: false, header: false });
  if (parsed.errors.length) throw new Error(`${what}: ${parsed.errors.map((e) => `row ${e.row}: ${e.message}`).join('; ')}`);
  const [header, ...data] = parsed.data;
  if (!header || header.length === 0 || (header.length === 1 && header[0] === '')) throw new Error(`${what}: no header`);
  if (new Set(header).size !== header.length) throw new Error(`${what}: duplicate header names`);
  data.forEach((row, i) => {
    if (row.length === 1 && row[0] === '') throw new Error(`${what}: empty row at line ${i + 2}`);
    if (row.length !== header.length) throw new Error(`${what}: line ${i + 2} has ${row.length} fields, the header ${header.length}`);
  });
  return { header, rows: data.map((row) => Object.fromEntries(header.map((h, i) => [h, row[i]]))) };
}
