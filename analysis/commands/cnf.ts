// `nonolab cnf PUZZLE.json [--encoding block-start|dfa|line-gac]`: a Nonogram's CNF as DIMACS on stdout.
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { z } from 'zod';
import { encode, writeDimacs, type Encoding } from '../../shared/sat/index.ts';
import { commandDescription } from './catalog.ts';
import { detectFormat, PuzzleFormatError } from '../../shared/nonogram/index.ts';
import { PuzzleFileError, looksLikeConfig, readPuzzleFile } from '../puzzleFile.ts';
import { otherKindFile } from '../kindFile.ts';

/** What the SAT commands read: bare clues or any puzzle record (extra fields are kept, not checked). */
export const ClueInput = z
  .object({
    id: z.string().optional(),
    rows: z.array(z.array(z.number().int().positive())),
    cols: z.array(z.array(z.number().int().positive())),
  })
  .passthrough();
export type ClueInput = z.infer<typeof ClueInput>;

export class InputError extends Error {}

/**
 * Reads puzzles from a file: one JSON object, a JSON array of them, or NDJSON (one per line), whose records may be bare
 * clues; any other puzzle file (.non, webpbn XML) or a study config goes through the CLI's one loader (analysis/puzzleFile.ts).
 * Errors name the file, the record (line for NDJSON) and the field.
 */
export function readPuzzles(file: string): ClueInput[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new InputError(`${file}: cannot read (${(err as Error).message})`);
  }
  const format = detectFormat(text, file);
  if (looksLikeConfig(text) || format === 'non' || format === 'webpbn-xml') {
    try {
      return readPuzzleFile(file).puzzles;
    } catch (err) {
      if (err instanceof PuzzleFileError || err instanceof PuzzleFormatError) throw new InputError(err.message);
      throw err;
    }
  }
  const records: { where: string; value: unknown }[] = [];
  const trimmed = text.trim();
  try {
    const whole: unknown = JSON.parse(trimmed);
    if (Array.isArray(whole)) whole.forEach((value, i) => records.push({ where: `record ${i}`, value }));
    else records.push({ where: 'top level', value: whole });
  } catch {
    const lines = text.split('\n');
    lines.forEach((line, i) => {
      if (!line.trim()) return;
      try {
        records.push({ where: `line ${i + 1}`, value: JSON.parse(line) });
      } catch (err) {
        throw new InputError(`${file}: line ${i + 1}: not JSON (${(err as Error).message})`);
      }
    });
  }
  if (records.length === 0) throw new InputError(`${file}: no puzzle in the file`);
  return records.map(({ where, value }) => {
    const parsed = ClueInput.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new InputError(`${file}: ${where}: field ${issue.path.join('.') || '(root)'}: ${issue.message}`);
    }
    return parsed.data;
  });
}

export function parseEncoding(value: string): Encoding {
  if (value !== 'block-start' && value !== 'dfa' && value !== 'line-gac') throw new InputError(`--encoding must be block-start, dfa or line-gac, got '${value}'`);
  return value;
}

export function registerCnf(program: Command): void {
  program
    .command('cnf')
    .description(commandDescription('cnf'))
    .argument('<puzzle>', 'a puzzle file (JSON, NDJSON, .non, webpbn XML or a study config; bare {"rows","cols"} clues too): the first puzzle unless --index')
    .option('--kind <kind>', 'the puzzle kind: nonogram or sudoku (default: inferred from the file)')
    .option('--encoding <name>', 'Nonogram: block-start (the paper, Appendix A; the default), dfa (Foote & Krizanc) or line-gac (unit propagation = complete line solving); Sudoku: minimal or extended (Lynce & Ouaknine 2006; the default extended)')
    .option('--index <n>', 'which puzzle of an array/NDJSON file', '0')
    .action((file: string, opts: { kind?: string; encoding?: string; index: string }) => {
      const other = otherKindFile('cnf', file, opts.kind);
      if (other === 'error') return;
      if (other) {
        const encoding = opts.encoding ?? other.kind.defaultEncoding;
        if (!other.kind.encodings.includes(encoding)) {
          console.error(`cnf: --encoding must be ${other.kind.encodings.join(' or ')} for a ${other.kind.name}, got '${encoding}'`);
          process.exitCode = 2;
          return;
        }
        const index = Number(opts.index);
        if (!Number.isInteger(index) || index < 0 || index >= other.records.length) {
          console.error(`cnf: --index ${opts.index}: the file has ${other.records.length} puzzle(s)`);
          process.exitCode = 2;
          return;
        }
        process.stdout.write(other.kind.dimacs(other.records[index], encoding));
        return;
      }
      try {
        opts.encoding ??= 'block-start';
        const encoding = parseEncoding(opts.encoding);
        const puzzles = readPuzzles(file);
        const index = Number(opts.index);
        if (!Number.isInteger(index) || index < 0 || index >= puzzles.length) throw new InputError(`--index ${opts.index}: the file has ${puzzles.length} puzzle(s)`);
        const p = puzzles[index];
        let cnf;
        try {
          cnf = encode(p, encoding);
        } catch (err) {
          throw new InputError(`${file}: ${(err as Error).message}`);
        }
        const comments = [
          `nonolab cnf --encoding ${encoding}${p.id ? ` (puzzle ${p.id})` : ''}: ${p.rows.length} rows x ${p.cols.length} columns`,
          `cell (r,c) is variable r*${p.cols.length}+c+1; auxiliary variables follow line by line (rows, then columns)`,
        ];
        process.stdout.write(writeDimacs({ numVars: cnf.numVars, clauses: cnf.clauses }, comments));
      } catch (err) {
        if (!(err instanceof InputError)) throw err;
        console.error(err.message);
        process.exitCode = 2;
      }
    });
}
