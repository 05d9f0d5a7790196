// DIMACS CNF text: parse it into integer clauses and write clauses back out.
import { z } from 'zod';

/** A CNF in DIMACS integers: variable v is v (true) or -v (false), v >= 1. */
export const Cnf = z.object({
  numVars: z.number().int().nonnegative(),
  clauses: z.array(z.array(z.number().int().refine((l) => l !== 0, 'literal 0 is the clause terminator, not a literal'))),
});
export type Cnf = z.infer<typeof Cnf>;

export class DimacsError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`line ${line}: ${message}`);
    this.name = 'DimacsError';
  }
}

/**
 * Parses DIMACS CNF text. Comment lines ('c ...') and a '%' end marker are skipped; clauses may
 * span lines and end at 0. `numVars` is the larger of the header's count and the largest index
 * used (a solver creates only the variables the clauses mention). Throws DimacsError with the line.
 */
export function parseDimacs(text: string): Cnf {
  const clauses: number[][] = [];
  let header: { vars: number; clauses: number } | null = null;
  let current: number[] = [];
  let maxVar = 0;
  let lineNo = 0;
  let start = 0;
  const n = text.length;
  while (start <= n) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = n;
    lineNo++;
    const line = text.slice(start, end).trim();
    start = end + 1;
    if (line === '' || line[0] === 'c') continue;
    if (line[0] === '%') break;
    if (line[0] === 'p') {
      const m = /^p\s+cnf\s+(\d+)\s+(\d+)$/.exec(line);
      if (!m) throw new DimacsError(`bad header '${line}', expected 'p cnf VARS CLAUSES'`, lineNo);
      if (header) throw new DimacsError('second header', lineNo);
      header = { vars: Number(m[1]), clauses: Number(m[2]) };
      continue;
    }
    for (const tok of line.split(/\s+/)) {
      if (!/^-?\d+$/.test(tok)) throw new DimacsError(`'${tok}' is not an integer literal`, lineNo);
      const l = Number(tok);
      if (l === 0) {
        clauses.push(current);
        current = [];
      } else {
        const v = Math.abs(l);
        if (!Number.isSafeInteger(v) || v > 0x3fffffff) throw new DimacsError(`variable ${v} is too large`, lineNo);
        if (v > maxVar) maxVar = v;
        current.push(l);
      }
    }
  }
  if (current.length > 0) throw new DimacsError('last clause is not terminated by 0', lineNo);
  return { numVars: Math.max(maxVar, header?.vars ?? 0), clauses };
}

/** Writes a CNF as DIMACS text (header, then one clause per line ending in 0), with optional comment lines. */
export function writeDimacs(cnf: Cnf, comments: string[] = []): string {
  const parts: string[] = [];
  for (const c of comments) parts.push(`c ${c}`);
  parts.push(`p cnf ${cnf.numVars} ${cnf.clauses.length}`);
  for (const clause of cnf.clauses) parts.push(clause.length ? `${clause.join(' ')} 0` : '0');
  return parts.join('\n') + '\n';
}
