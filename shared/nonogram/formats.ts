// Puzzle files in and out: our JSON (and NDJSON), Steve Simpson's `.non`, and webpbn's XML export.
//
// Every parser returns validated Puzzle records (shared/schema/puzzle.ts): clues that fit their
// lines, a solution (if given) whose clues are the stated clues, and an id (the file's, if it is a
// valid id, else the clue-derived `puzzleId`). Bad input throws a PuzzleFormatError naming the file,
// the line and the field. Only black-and-white rectangular puzzles are supported; multi-colour and
// triddler files are rejected with a message that says so.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { Puzzle } from '../schema/puzzle.ts';
import { cluesOf, gridFromRows } from './grid.ts';
import type { Clue } from './grid.ts';
import { canonicalClues, puzzleId } from './id.ts';

/** Control bytes shown as \xNN, so that an error about a binary file never writes them to a terminal. */
export function printable(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\ufffd]/g, (c) => (c === '\ufffd' ? '?' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`));
}

export class PuzzleFormatError extends Error {
  constructor(
    message: string,
    readonly file: string,
    readonly line?: number,
    readonly field?: string,
  ) {
    super(printable(`${file}${line !== undefined ? `:${line}` : ''}: ${field ? `${field}: ` : ''}${message}`));
    this.name = 'PuzzleFormatError';
  }
}

/**
 * A clue set no board can satisfy for a reason visible without search: a clue longer than its line,
 * or row and column clues that fill different numbers of cells. (A PuzzleFormatError, so callers
 * that catch those still do; `nonolab solve` reports it as inconsistent rather than "0 solutions".)
 */
export class InconsistentCluesError extends PuzzleFormatError {
  constructor(message: string, file: string, line?: number, field?: string) {
    super(`inconsistent clues: ${message}`, file, line, field);
    this.name = 'InconsistentCluesError';
  }
}

export type PuzzleFormat = 'json' | 'ndjson' | 'non' | 'webpbn-xml';

export interface RawPuzzle {
  id?: unknown;
  rows: Clue[];
  cols: Clue[];
  solution?: string[];
  seed?: number | string;
  metrics?: unknown;
}

/**
 * Validate and complete one puzzle: dimensions from the clues, the schema, and solution/clue agreement.
 * `where(field)` gives the line to blame for a field, if known.
 */
export function finishPuzzle(raw: RawPuzzle, file: string, where: (field: string) => number | undefined = () => undefined): Puzzle {
  const width = raw.cols.length;
  const height = raw.rows.length;
  const clues = { rows: raw.rows, cols: raw.cols };
  const id = typeof raw.id === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(raw.id) ? raw.id : puzzleId(clues);
  for (const [key, name, list, length] of [['rows', 'row', raw.rows, width], ['cols', 'column', raw.cols, height]] as const) {
    list.forEach((clue, i) => {
      const need = clue.reduce((a, b) => a + b, 0) + Math.max(0, clue.length - 1);
      if (need > length) throw new InconsistentCluesError(`${name} clue needs ${need} cells, the ${name} has ${length}`, file, where(`${key}[${i}]`), `${key}[${i}]`);
    });
  }
  const rowSum = raw.rows.flat().reduce((a, b) => a + b, 0);
  const colSum = raw.cols.flat().reduce((a, b) => a + b, 0);
  if (rowSum !== colSum) throw new InconsistentCluesError(`row clues fill ${rowSum} cells but column clues fill ${colSum}`, file, where('cols'), 'cols');
  const candidate: Record<string, unknown> = { id, width, height, rows: raw.rows, cols: raw.cols };
  if (raw.solution !== undefined) candidate.solution = raw.solution;
  if (raw.seed !== undefined) candidate.seed = raw.seed;
  if (raw.metrics !== undefined) candidate.metrics = raw.metrics;
  const parsed = Puzzle.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`)).join('');
    throw new PuzzleFormatError(issue.message, file, where(field), field || undefined);
  }
  if (parsed.data.solution) {
    const fromSolution = cluesOf(gridFromRows(parsed.data.solution));
    if (canonicalClues(fromSolution) !== canonicalClues(clues)) {
      const r = fromSolution.rows.findIndex((c, i) => c.join() !== raw.rows[i].join());
      const c = fromSolution.cols.findIndex((cl, i) => cl.join() !== raw.cols[i].join());
      const what = r >= 0 ? `row ${r + 1} of the solution has runs ${fromSolution.rows[r].join(' ') || '0'}, its clue says ${raw.rows[r].join(' ') || '0'}` : `column ${c + 1} of the solution has runs ${fromSolution.cols[c].join(' ') || '0'}, its clue says ${raw.cols[c].join(' ') || '0'}`;
      throw new PuzzleFormatError(`solution does not match the clues: ${what}`, file, where('solution'), 'solution');
    }
  }
  return parsed.data;
}

/**
 * Problems with a set of clues, each naming its field (`rows[3]`, `cols`): a run of length < 1, a clue
 * that needs more cells than its line has, and row/column totals that disagree. Empty when fine.
 * (Fitting clues can still have no solution; `countSolutions` decides that.)
 */
export function checkClues(clues: { rows: Clue[]; cols: Clue[] }): string[] {
  const problems: string[] = [];
  const width = clues.cols.length;
  const height = clues.rows.length;
  for (const [axis, list, length] of [['rows', clues.rows, width], ['cols', clues.cols, height]] as const) {
    list.forEach((clue, i) => {
      if (!clue.every((n) => Number.isInteger(n) && n >= 1)) problems.push(`${axis}[${i}]: runs must be positive integers`);
      const need = clue.reduce((a, b) => a + b, 0) + Math.max(0, clue.length - 1);
      if (need > length) problems.push(`${axis}[${i}]: clue ${clue.join(' ')} needs ${need} cells, the line has ${length}`);
    });
  }
  const rowSum = clues.rows.flat().reduce((a, b) => a + b, 0);
  const colSum = clues.cols.flat().reduce((a, b) => a + b, 0);
  if (rowSum !== colSum) problems.push(`cols: row clues fill ${rowSum} cells but column clues fill ${colSum}`);
  return problems;
}

// ---------------------------------------------------------------------------------------------
// JSON: {"rows": [[...]], "cols": [[...]], "solution"?: ["#..#", ...], "id"?: "..."}, a single
// object, an array of them, or NDJSON (one per line).

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Best-effort line of a JSON path like `rows[3]` in the text (first occurrence of the key, then the element). */
function locateJson(text: string, base: number, field: string): number | undefined {
  const m = /^([A-Za-z_]+)(?:\[(\d+)\])?/.exec(field);
  if (!m) return undefined;
  const keyAt = text.indexOf(`"${m[1]}"`, base);
  if (keyAt < 0) return undefined;
  if (m[2] === undefined) return lineAt(text, keyAt);
  const want = Number(m[2]);
  let i = text.indexOf('[', keyAt);
  if (i < 0) return undefined;
  let depth = 0;
  let index = 0;
  let inString = false;
  for (i = i + 1; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (depth === 0 && index === want && !/\s/.test(ch)) return lineAt(text, i);
    if (ch === '"') inString = true;
    else if (ch === '[' || ch === '{') depth++;
    else if (ch === ']' || ch === '}') {
      if (depth === 0) return undefined;
      depth--;
    } else if (ch === ',' && depth === 0) index++;
  }
  return undefined;
}

/**
 * Where JSON.parse failed: V8 says "at position N", or quotes the text around the bad token
 * ('Unexpected token X, ..."context" is not valid JSON', ten characters either side, "..." where cut).
 */
function jsonErrorOffset(message: string, text: string): number | undefined {
  const pos = /position (\d+)/.exec(message);
  if (pos) return Number(pos[1]);
  if (/end of JSON input/.test(message)) return text.length;
  const m = /^Unexpected token '?(.)'?, (\.\.\.)?"([\s\S]*?)"(\.\.\.)? is not valid JSON/.exec(message);
  if (!m) return undefined;
  const [, token, cutBefore, context] = m;
  const at = text.indexOf(context);
  if (at < 0) return undefined;
  if (cutBefore) return at + 10;
  const k = context.indexOf(token);
  return k < 0 ? undefined : at + k;
}

function jsonSyntaxError(e: unknown, text: string, file: string, lineOffset = 0): PuzzleFormatError {
  const message = e instanceof Error ? e.message : String(e);
  const pos = jsonErrorOffset(message, text);
  return new PuzzleFormatError(`invalid JSON (${message.replace(/\r?\n/g, '\\n')})`, file, pos !== undefined ? lineAt(text, pos) + lineOffset : lineOffset || undefined);
}

function rawFromJson(value: unknown, file: string, line: (field: string) => number | undefined): RawPuzzle {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new PuzzleFormatError('expected an object with "rows" and "cols"', file, line(''));
  const o = value as Record<string, unknown>;
  const cols = o.cols ?? o.columns;
  for (const [name, v] of [['rows', o.rows], ['cols', cols]] as const) {
    if (!Array.isArray(v)) throw new PuzzleFormatError('missing or not an array of clues', file, line(name), name);
    v.forEach((clue, i) => {
      if (!Array.isArray(clue) || !clue.every((n) => Number.isInteger(n) && n >= 0))
        throw new PuzzleFormatError('a clue is an array of non-negative integers', file, line(`${name}[${i}]`), `${name}[${i}]`);
    });
  }
  const strip = (ls: number[][]) => ls.map((l) => l.filter((n) => n > 0));
  const solution = o.solution;
  if (solution !== undefined && !(Array.isArray(solution) && solution.every((s) => typeof s === 'string')))
    throw new PuzzleFormatError('solution is an array of strings of # and .', file, line('solution'), 'solution');
  const seed = typeof o.seed === 'number' || typeof o.seed === 'string' ? o.seed : undefined;
  return { id: o.id, rows: strip(o.rows as number[][]), cols: strip(cols as number[][]), solution: solution as string[] | undefined, seed, metrics: o.metrics };
}

export function parseJsonPuzzles(text: string, file = 'input.json'): Puzzle[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    // Maybe NDJSON: several lines, the first of which is a JSON value on its own.
    const lines = text.split('\n').filter((l) => l.trim());
    if (lines.length > 1 && parsesAlone(lines[0])) return parseNdjsonPuzzles(text, file);
    throw jsonSyntaxError(e, text, file);
  }
  const items = Array.isArray(value) ? value : [value];
  return items.map((item, k) => {
    // For arrays, search fields from the start of the k-th element.
    const base = Array.isArray(value) ? nthObjectStart(text, k) : 0;
    const where = (field: string) => locateJson(text, base, field) ?? lineAt(text, base);
    return finishPuzzle(rawFromJson(item, file, where), file, where);
  });
}

function parsesAlone(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

function nthObjectStart(text: string, k: number): number {
  let depth = 0;
  let count = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{') {
      if (depth === 1 && ++count === k) return i;
      depth++;
    } else if (ch === '[' ) depth++;
    else if (ch === '}' || ch === ']') depth--;
  }
  return 0;
}

export function parseNdjsonPuzzles(text: string, file = 'input.ndjson'): Puzzle[] {
  const out: Puzzle[] = [];
  text.split('\n').forEach((lineText, i) => {
    if (!lineText.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(lineText);
    } catch (e) {
      throw new PuzzleFormatError(`invalid JSON (${e instanceof Error ? e.message : String(e)})`, file, i + 1);
    }
    const where = () => i + 1;
    out.push(finishPuzzle(rawFromJson(value, file, where), file, where));
  });
  return out;
}

/** Our JSON for one puzzle: clues, solution and id (one line, keys in a fixed order). */
export function writeJsonPuzzle(p: Puzzle): string {
  const o: Record<string, unknown> = { id: p.id, width: p.width, height: p.height, rows: p.rows, cols: p.cols };
  if (p.solution) o.solution = p.solution;
  return JSON.stringify(o);
}

// ---------------------------------------------------------------------------------------------
// Steve Simpson's .non: `width W`, `height H`, `rows` then H rules, `columns` then W rules, a rule
// is comma-separated ints with `0` for an empty line, blank lines are ignored, other words are
// properties (`title "..."`, `goal 0110...`, `catalogue`, `by`, `copyright`, `license`).

function unquote(s: string): string {
  const t = s.trim();
  return t.length >= 2 && t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1) : t;
}

export interface NonProperties {
  [key: string]: string;
}

export function parseNon(text: string, file = 'input.non'): Puzzle {
  // LF, CRLF and old-Mac CR line endings alike.
  const lines = text.split(/\r\n|\r|\n/);
  // eslint-disable-next-line no-control-regex
  const binary = lines.findIndex((l) => /[\u0000-\u0008\u000e-\u001f]/.test(l));
  if (binary >= 0) throw new PuzzleFormatError('not a text puzzle file (binary bytes); expected .non, .json, .ndjson or webpbn .xml', file, binary + 1);
  let width: number | undefined;
  let height: number | undefined;
  const rows: Clue[] = [];
  const cols: Clue[] = [];
  let section: 'rows' | 'columns' | null = null;
  let goal: { text: string; line: number } | undefined;
  const props: NonProperties = {};
  const lineOf: Record<string, number> = {};
  const dimension = (v: string, i: number, field: string) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1 || n > 100) throw new PuzzleFormatError(`expected an integer 1..100, got '${v}'`, file, i + 1, field);
    lineOf[field] = i + 1;
    return n;
  };
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].trim();
    if (!raw || raw.startsWith('#')) continue;
    if (section) {
      const target = section === 'rows' ? rows : cols;
      const need = section === 'rows' ? height : width;
      if (need !== undefined && target.length < need && /^[0-9]/.test(raw)) {
        const clue: Clue = [];
        for (const part of raw.split(/\s*,\s*|\s+/)) {
          if (!/^\d+$/.test(part)) {
            const colour = /^\d+[a-zA-Z]$/.test(part);
            throw new PuzzleFormatError(colour ? `multi-colour clues ('${part}') are not supported` : `expected a run length, got '${part}'`, file, i + 1, `${section}[${target.length}]`);
          }
          const n = Number(part);
          if (n > 0) clue.push(n);
        }
        if (target.length === 0) lineOf[section] = i + 1;
        target.push(clue);
        continue;
      }
      if (need !== undefined && target.length < need)
        throw new PuzzleFormatError(`expected ${need} ${section === 'rows' ? 'row' : 'column'} clues, found ${target.length} before '${raw}'`, file, i + 1, section);
      section = null;
    }
    const m = /^(\S+)\s*([\s\S]*)$/.exec(raw) as RegExpExecArray;
    const key = m[1].toLowerCase();
    const value = m[2];
    if (key === 'width') width = dimension(value, i, 'width');
    else if (key === 'height') height = dimension(value, i, 'height');
    else if (key === 'rows' || key === 'columns') {
      if (value.trim()) {
        // `rows H` / `columns W` set a dimension; they don't start a section.
        if (key === 'rows') height = dimension(value, i, 'height');
        else width = dimension(value, i, 'width');
      } else {
        const dim = key === 'rows' ? height : width;
        if (dim === undefined) throw new PuzzleFormatError(`'${key}' before '${key === 'rows' ? 'height' : 'width'}'`, file, i + 1, key);
        section = key;
      }
    } else if (key === 'goal') goal = { text: unquote(value), line: i + 1 };
    else if (key === 'color') throw new PuzzleFormatError('multi-colour puzzles are not supported', file, i + 1, 'color');
    else props[key] = unquote(value);
  }
  if (section) {
    const target = section === 'rows' ? rows : cols;
    const need = section === 'rows' ? height : width;
    if (need !== undefined && target.length < need)
      throw new PuzzleFormatError(`expected ${need} ${section === 'rows' ? 'row' : 'column'} clues, found ${target.length}`, file, lines.length, section);
  }
  if (width === undefined) throw new PuzzleFormatError("missing 'width'", file, undefined, 'width');
  if (height === undefined) throw new PuzzleFormatError("missing 'height'", file, undefined, 'height');
  if (rows.length !== height) throw new PuzzleFormatError(`expected ${height} row clues, found ${rows.length}`, file, lineOf.rows, 'rows');
  if (cols.length !== width) throw new PuzzleFormatError(`expected ${width} column clues, found ${cols.length}`, file, lineOf.columns, 'columns');
  let solution: string[] | undefined;
  if (goal) {
    const g = goal.text.replace(/\s+/g, '');
    if (g.length !== width * height) throw new PuzzleFormatError(`expected ${width * height} cells (width x height), got ${g.length}`, file, goal.line, 'goal');
    solution = [];
    for (let r = 0; r < height; r++) solution.push(Array.from(g.slice(r * width, r * width + width), (ch) => (ch === '0' ? '.' : '#')).join(''));
  }
  const where = (field: string) => {
    if (field.startsWith('rows')) return lineOf.rows !== undefined ? lineOf.rows + Number(/\[(\d+)\]/.exec(field)?.[1] ?? 0) : undefined;
    if (field.startsWith('cols')) return lineOf.columns !== undefined ? lineOf.columns + Number(/\[(\d+)\]/.exec(field)?.[1] ?? 0) : undefined;
    if (field.startsWith('solution')) return goal?.line;
    return undefined;
  };
  return finishPuzzle({ id: props.id, rows, cols, solution }, file, (f) => where(f));
}

/** Simpson's .non text, with `title`/`by`/... properties and `goal` when the solution is known. */
export function writeNon(p: Puzzle, properties: NonProperties = {}): string {
  const out: string[] = [];
  for (const [k, v] of Object.entries({ id: p.id, ...properties })) out.push(`${k} "${v.replace(/"/g, '&quot;')}"`);
  out.push(`width ${p.width}`, `height ${p.height}`, '', 'rows');
  for (const c of p.rows) out.push(c.length ? c.join(',') : '0');
  out.push('', 'columns');
  for (const c of p.cols) out.push(c.length ? c.join(',') : '0');
  if (p.solution) out.push('', `goal "${p.solution.join('').replace(/#/g, '1').replace(/\./g, '0')}"`);
  return out.join('\n') + '\n';
}

// ---------------------------------------------------------------------------------------------
// webpbn XML (pbn-0.3), read with fast-xml-parser: <puzzleset><puzzle type="grid"><color .../><clues type="columns|rows">
// <line><count>n</count>...</line>...</clues><solution type="goal"><image>|..X|</image></solution>.

interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text: string;
  line: number;
}

const xml = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  captureMetaData: true,
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  htmlEntities: true,
});
const META = XMLParser.getMetaDataSymbol() as unknown as symbol;

/**
 * webpbn XML as a tree of elements with their attributes, text and line (fast-xml-parser: well-formedness checked by
 * its validator, whose message names the line; entities, CDATA, comments and the DOCTYPE handled by the parser).
 */
function parseXml(text: string, file: string): XmlNode {
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new PuzzleFormatError(`malformed XML: ${valid.err.msg}`, file, valid.err.line);
  type Ordered = Record<string, unknown> & { ':@'?: Record<string, string> };
  const newlines: number[] = [];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) newlines.push(i);
  /** 1 + the number of newlines before the offset (binary search). */
  const lineOf = (offset: number) => {
    let lo = 0, hi = newlines.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (newlines[mid] < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1;
  };
  const build = (name: string, attrs: Record<string, string>, items: Ordered[], line: number): XmlNode => {
    const node: XmlNode = { name, attrs, children: [], text: '', line };
    for (const item of items) {
      const key = Object.keys(item).find((k) => k !== ':@')!;
      if (key === '#text') node.text += String(item[key]);
      else if (!key.startsWith('?')) {
        const start = (item as unknown as Record<symbol, { startIndex?: number } | undefined>)[META]?.startIndex ?? 0;
        node.children.push(build(key, item[':@'] ?? {}, item[key] as Ordered[], lineOf(start)));
      }
    }
    return node;
  };
  return build('#root', {}, xml.parse(text) as Ordered[], 1);
}

const kids = (n: XmlNode, name: string) => n.children.filter((c) => c.name === name);

export function parseWebpbnXml(text: string, file = 'input.xml'): Puzzle[] {
  const root = parseXml(text, file);
  const puzzles: XmlNode[] = [];
  const walk = (n: XmlNode) => {
    for (const c of n.children) {
      if (c.name === 'puzzle') puzzles.push(c);
      else walk(c);
    }
  };
  walk(root);
  if (puzzles.length === 0) throw new PuzzleFormatError('no <puzzle> element', file, 1, 'puzzle');
  return puzzles.map((pz) => {
    const type = pz.attrs.type ?? 'grid';
    if (type !== 'grid') throw new PuzzleFormatError(`puzzle type '${type}' is not supported (only grid)`, file, pz.line, 'puzzle.type');
    const defaultColor = pz.attrs.defaultcolor ?? 'black';
    const backgroundColor = pz.attrs.backgroundcolor ?? 'white';
    const colorChar: Record<string, string> = { white: '.', black: 'X' };
    for (const c of kids(pz, 'color')) if (c.attrs.name && c.attrs.char) colorChar[c.attrs.name] = c.attrs.char;
    const clueSets: Record<string, { clues: Clue[]; line: number; lines: number[] }> = {};
    for (const cl of kids(pz, 'clues')) {
      const axis = cl.attrs.type;
      if (axis !== 'rows' && axis !== 'columns') throw new PuzzleFormatError(`<clues type="${axis ?? ''}">: expected rows or columns`, file, cl.line, 'clues.type');
      const clues: Clue[] = [];
      const lines: number[] = [];
      kids(cl, 'line').forEach((ln, i) => {
        const clue: Clue = [];
        for (const ct of kids(ln, 'count')) {
          const field = `${axis}[${i}]`;
          if (ct.attrs.color && ct.attrs.color !== defaultColor) throw new PuzzleFormatError(`multi-colour clues (color="${ct.attrs.color}") are not supported`, file, ct.line, field);
          const v = ct.text.trim();
          if (!/^\d+$/.test(v)) throw new PuzzleFormatError(`<count> must be a non-negative integer, got '${v}'`, file, ct.line, field);
          if (Number(v) > 0) clue.push(Number(v));
        }
        clues.push(clue);
        lines.push(ln.line);
      });
      clueSets[axis] = { clues, line: cl.line, lines };
    }
    if (!clueSets.rows) throw new PuzzleFormatError('missing <clues type="rows">', file, pz.line, 'rows');
    if (!clueSets.columns) throw new PuzzleFormatError('missing <clues type="columns">', file, pz.line, 'columns');
    let solution: string[] | undefined;
    let solutionLine: number | undefined;
    const goal = kids(pz, 'solution').find((s) => (s.attrs.type ?? 'goal') === 'goal');
    const image = goal ? kids(goal, 'image')[0] : undefined;
    if (goal && image) {
      solutionLine = image.line;
      const on = colorChar[defaultColor] ?? 'X';
      const off = colorChar[backgroundColor] ?? '.';
      solution = [];
      const rowsText = image.text.split('\n').map((s) => s.trim()).filter(Boolean);
      for (const [k, r] of rowsText.entries()) {
        const body = r.replace(/^\|/, '').replace(/\|$/, '');
        let out = '';
        for (const ch of body) {
          if (ch === on) out += '#';
          else if (ch === off) out += '.';
          else throw new PuzzleFormatError(`unexpected character '${ch}' (black is '${on}', white '${off}'; multi-colour images are not supported)`, file, image.line + k + 1, `solution[${k}]`);
        }
        solution.push(out);
      }
    }
    const idNode = kids(pz, 'id')[0];
    const rawId = idNode ? idNode.text.trim().replace(/^#/, 'webpbn-') : undefined;
    const where = (field: string) => {
      const m = /^(rows|cols)\[(\d+)\]/.exec(field);
      if (m) {
        const set = clueSets[m[1] === 'rows' ? 'rows' : 'columns'];
        return set.lines[Number(m[2])] ?? set.line;
      }
      if (field.startsWith('rows')) return clueSets.rows.line;
      if (field.startsWith('cols')) return clueSets.columns.line;
      if (field.startsWith('solution')) return solutionLine;
      return pz.line;
    };
    return finishPuzzle({ id: rawId, rows: clueSets.rows.clues, cols: clueSets.columns.clues, solution }, file, where);
  });
}

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** webpbn pbn-0.3 XML for one or more black-and-white puzzles. */
export function writeWebpbnXml(puzzles: Puzzle | Puzzle[], title?: string): string {
  const list = Array.isArray(puzzles) ? puzzles : [puzzles];
  const out = ['<?xml version="1.0"?>', '<!DOCTYPE pbn SYSTEM "https://webpbn.com/pbn-0.3.dtd">', '<puzzleset>'];
  for (const p of list) {
    out.push('<puzzle type="grid" defaultcolor="black">', `<source>nonolab</source>`, `<id>${escapeXml(p.id)}</id>`);
    if (title) out.push(`<title>${escapeXml(title)}</title>`);
    out.push('<color name="white" char=".">fff</color>', '<color name="black" char="X">000</color>');
    const clues = (type: string, ls: Clue[]) => {
      out.push(`<clues type="${type}">`);
      for (const c of ls) out.push(`<line>${c.map((n) => `<count>${n}</count>`).join('')}</line>`);
      out.push('</clues>');
    };
    clues('columns', p.cols);
    clues('rows', p.rows);
    if (p.solution) {
      out.push('<solution type="goal">', '<image>');
      for (const r of p.solution) out.push(`|${r.replace(/#/g, 'X')}|`);
      out.push('</image>', '</solution>');
    }
    out.push('</puzzle>');
  }
  out.push('</puzzleset>');
  return out.join('\n') + '\n';
}

// ---------------------------------------------------------------------------------------------

/** The format of a file, from its name if it has a known extension, else from its first characters. */
export function detectFormat(text: string, filename = ''): PuzzleFormat {
  const ext = /\.([a-z]+)$/i.exec(filename)?.[1]?.toLowerCase();
  if (ext === 'non') return 'non';
  if (ext === 'xml' || ext === 'pbn') return 'webpbn-xml';
  if (ext === 'ndjson' || ext === 'jsonl') return 'ndjson';
  if (ext === 'json') return 'json';
  const head = text.trimStart();
  if (head.startsWith('<')) return 'webpbn-xml';
  if (head.startsWith('{') || head.startsWith('[')) return 'json';
  return 'non';
}

/** Parse any supported puzzle file into validated Puzzle records (errors name file, line, field). */
export function parsePuzzleFile(text: string, filename = 'input'): Puzzle[] {
  switch (detectFormat(text, filename)) {
    case 'non':
      return [parseNon(text, filename)];
    case 'webpbn-xml':
      return parseWebpbnXml(text, filename);
    case 'ndjson':
      return parseNdjsonPuzzles(text, filename);
    case 'json':
      return parseJsonPuzzles(text, filename);
  }
}
