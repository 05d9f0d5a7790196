// The puzzle file parsers and writers on sample files, round trips, and errors that name line and field.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Puzzle } from '../schema/puzzle.ts';
import { InconsistentCluesError, PuzzleFormatError, checkClues, detectFormat, parseJsonPuzzles, parseNon, parsePuzzleFile, parseWebpbnXml, writeJsonPuzzle, writeNon, writeWebpbnXml } from './formats.ts';
import { puzzleId } from './id.ts';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8');

function errorOf(f: () => unknown): PuzzleFormatError {
  try {
    f();
  } catch (e) {
    if (e instanceof PuzzleFormatError) return e;
    throw e;
  }
  throw new Error('expected a PuzzleFormatError');
}

describe('sample files', () => {
  it("reads Simpson's .non with properties and goal", () => {
    const [p] = parsePuzzleFile(fixture('simpson-sample.non'), 'simpson-sample.non');
    expect(p).toMatchObject({ width: 4, height: 5, rows: [[4], [1, 1], [1, 1], [1, 2], [3]], cols: [[5], [1, 1], [1, 2], [4]] });
    expect(p.solution).toEqual(['####', '#..#', '#..#', '#.##', '###.']);
    expect(p.id).toBe(puzzleId(p));
  });

  it('reads a webpbn XML export with two puzzles, entities, empty lines and ids', () => {
    const ps = parsePuzzleFile(fixture('webpbn-sample.xml'), 'webpbn-sample.xml');
    expect(ps).toHaveLength(2);
    expect(ps[0]).toMatchObject({ id: 'webpbn-42', width: 5, height: 5, rows: [[1, 1], [5], [5], [3], [1]], cols: [[2], [4], [4], [4], [2]] });
    expect(ps[0].solution).toEqual(['.#.#.', '#####', '#####', '.###.', '..#..']);
    expect(ps[1]).toMatchObject({ id: 'webpbn-43', width: 3, height: 2, rows: [[1, 1], []], cols: [[1], [], [1]] });
    expect(ps[1].solution).toBeUndefined();
  });

  it('reads our JSON, NDJSON and the fixture arrays', () => {
    const [d] = parsePuzzleFile(fixture('ours-sample.json'), 'ours-sample.json');
    expect(d).toMatchObject({ id: 'diamond', width: 5, height: 5 });
    const nd = parsePuzzleFile(fixture('ours-sample.ndjson'), 'ours-sample.ndjson');
    expect(nd.map((p) => [p.width, p.height, p.rows])).toEqual([
      [2, 2, [[1], [1]]],
      [2, 2, [[2], []]],
    ]);
    const placeholders = parsePuzzleFile(fixture('placeholder-puzzles.json'), 'placeholder-puzzles.json');
    expect(placeholders).toHaveLength(6);
    for (const p of placeholders) expect(Puzzle.safeParse(p).success).toBe(true);
    expect(parsePuzzleFile(fixture('tutorial-warmup.json')).map((p) => p.id)).toEqual(['tutorial', 'warmup']);
  });

  it('detects formats from names, then from content', () => {
    expect(detectFormat('', 'a.non')).toBe('non');
    expect(detectFormat('', 'a.pbn')).toBe('webpbn-xml');
    expect(detectFormat('', 'a.jsonl')).toBe('ndjson');
    expect(detectFormat('  <?xml')).toBe('webpbn-xml');
    expect(detectFormat('[{')).toBe('json');
    expect(detectFormat('width 3')).toBe('non');
  });
});

describe('writers round-trip', () => {
  const puzzles = JSON.parse(fixture('placeholder-puzzles.json')) as Puzzle[];
  it('JSON', () => {
    for (const p of puzzles) expect(parseJsonPuzzles(writeJsonPuzzle(p))[0]).toEqual({ id: p.id, width: p.width, height: p.height, rows: p.rows, cols: p.cols, solution: p.solution });
  });
  it('.non', () => {
    for (const p of puzzles) {
      const text = writeNon(p, { title: 'A "quoted" title' });
      expect(text).toContain('title "A &quot;quoted&quot; title"');
      expect(parseNon(text)).toEqual({ id: p.id, width: p.width, height: p.height, rows: p.rows, cols: p.cols, solution: p.solution });
    }
  });
  it('webpbn XML', () => {
    const back = parseWebpbnXml(writeWebpbnXml(puzzles, 'Set <1>'));
    expect(back.map((p) => [p.id, p.rows, p.cols, p.solution])).toEqual(puzzles.map((p) => [p.id, p.rows, p.cols, p.solution]));
  });
  it('empty lines survive as 0 and <line></line>', () => {
    const p = parseJsonPuzzles('{"rows":[[2],[]],"cols":[[1],[1]]}')[0];
    expect(writeNon(p)).toContain('rows\n2\n0\n');
    expect(parseNon(writeNon(p)).rows).toEqual([[2], []]);
    expect(parseWebpbnXml(writeWebpbnXml(p))[0].rows).toEqual([[2], []]);
  });
});

describe('errors name the file, line and field', () => {
  it('JSON syntax error gives the line', () => {
    const e = errorOf(() => parsePuzzleFile('{\n "rows": [[1]],\n "cols": [[1]\n}', 'bad.json'));
    expect(e.file).toBe('bad.json');
    expect(e.line).toBe(4);
    expect(e.message).toMatch(/^bad\.json:4: invalid JSON/);
  });

  it('JSON clue that does not fit names rows[i] and its line', () => {
    const text = '{\n  "rows": [\n    [1],\n    [3]\n  ],\n  "cols": [[1], [1]]\n}';
    const e = errorOf(() => parsePuzzleFile(text, 'wide.json'));
    expect(e.field).toBe('rows[1]');
    expect(e.line).toBe(4);
    expect(e.message).toContain('row clue needs 3 cells, the row has 2');
  });

  it('JSON clue of the wrong type names the field', () => {
    const e = errorOf(() => parsePuzzleFile('{"rows": [[1], ["x"]], "cols": [[1],[1]]}', 'x.json'));
    expect(e.field).toBe('rows[1]');
  });

  it('JSON solution that disagrees with the clues says which row', () => {
    const e = errorOf(() => parsePuzzleFile('{"rows":[[1],[1]],"cols":[[1],[1]],\n"solution":["#.","#."]}', 's.json'));
    expect(e.field).toBe('solution');
    expect(e.line).toBe(2);
    expect(e.message).toContain('column 1 of the solution has runs 2, its clue says 1');
  });

  it('row and column totals must agree', () => {
    expect(errorOf(() => parsePuzzleFile('{"rows":[[2],[1]],"cols":[[1],[1]]}', 't.json')).message).toContain('row clues fill 3 cells but column clues fill 2');
  });

  it('NDJSON names the line', () => {
    const e = errorOf(() => parsePuzzleFile('{"rows":[[1]],"cols":[[1]]}\n{"rows":[[1]],"cols":[[2]]}\n', 'p.ndjson'));
    expect(e.line).toBe(2);
    expect(e.field).toBe('cols[0]');
  });

  it('.non: too few rows, a bad run, a short goal, colours', () => {
    let e = errorOf(() => parseNon('width 2\nheight 3\nrows\n1\n1\ncolumns\n1\n1\n', 'few.non'));
    expect([e.line, e.field]).toEqual([6, 'rows']);
    expect(e.message).toContain('expected 3 row clues, found 2');
    e = errorOf(() => parseNon('width 2\nheight 1\nrows\n1,x\ncolumns\n1\n0\n', 'run.non'));
    expect([e.line, e.field]).toEqual([4, 'rows[0]']);
    e = errorOf(() => parseNon('width 2\nheight 1\nrows\n1\ncolumns\n1\n0\ngoal 1\n', 'goal.non'));
    expect([e.line, e.field]).toEqual([8, 'goal']);
    e = errorOf(() => parseNon('width 2\nheight 1\nrows\n1a\ncolumns\n1\n0\n', 'colour.non'));
    expect(e.message).toContain('multi-colour');
    e = errorOf(() => parseNon('height 1\nrows\n1\n', 'nowidth.non'));
    expect(e.field).toBe('width');
    e = errorOf(() => parseNon('width 2\nheight 1\nrows\n3\ncolumns\n1\n1\n', 'fit.non'));
    expect([e.line, e.field]).toEqual([4, 'rows[0]']);
  });

  it('webpbn XML: bad count, colours, unclosed tags, bad image', () => {
    const wrap = (body: string) => `<?xml version="1.0"?>\n<puzzleset>\n<puzzle type="grid" defaultcolor="black">\n${body}\n</puzzle>\n</puzzleset>\n`;
    const clues = '<clues type="columns">\n<line><count>1</count></line>\n</clues>\n<clues type="rows">\n<line><count>1</count></line>\n</clues>';
    let e = errorOf(() => parseWebpbnXml(wrap(clues.replace('<count>1</count></line>\n</clues>\n<clues type="rows">', '<count>one</count></line>\n</clues>\n<clues type="rows">')), 'c.xml'));
    expect([e.line, e.field]).toEqual([5, 'columns[0]']);
    e = errorOf(() => parseWebpbnXml(wrap(clues.replace('<count>1</count></line>\n</clues>\n<clues type="rows">', '<count color="red">1</count></line>\n</clues>\n<clues type="rows">')), 'red.xml'));
    expect(e.message).toContain('multi-colour');
    e = errorOf(() => parseWebpbnXml('<puzzleset>\n<puzzle>\n</puzzleset>', 'open.xml'));
    expect(e.line).toBe(3);
    e = errorOf(() => parseWebpbnXml(wrap(`${clues}\n<solution type="goal">\n<image>\n|O|\n</image>\n</solution>`), 'img.xml'));
    expect([e.line, e.field]).toEqual([12, 'solution[0]']);
    e = errorOf(() => parseWebpbnXml(wrap('<clues type="rows">\n<line><count>1</count></line>\n</clues>'), 'nocols.xml'));
    expect(e.field).toBe('columns');
    e = errorOf(() => parseWebpbnXml(wrap(`${clues}\n<title>a < b</title>`), 'lt.xml'));
    expect([e.message.startsWith('lt.xml:10:'), /malformed XML/.test(e.message)]).toEqual([true, true]);
    // comments, CDATA, entities and a DOCTYPE are the parser's business: the puzzle reads the same
    const decorated = wrap(`<!-- a comment -->\n<title><![CDATA[x < y]]> &amp; &copy;</title>\n<id>#42</id>\n${clues}`).replace('<?xml version="1.0"?>', '<?xml version="1.0"?>\n<!DOCTYPE pbn SYSTEM "https://webpbn.com/pbn-0.3.dtd">');
    expect(parseWebpbnXml(decorated, 'd.xml')[0]).toMatchObject({ id: 'webpbn-42', rows: [[1]], cols: [[1]] });
  });
});

describe('checkClues', () => {
  it('names each problem by field', () => {
    expect(checkClues({ rows: [[1], [1]], cols: [[1], [1]] })).toEqual([]);
    expect(checkClues({ rows: [[3], [0]], cols: [[1], [1]] })).toEqual([
      'rows[0]: clue 3 needs 3 cells, the line has 2',
      'rows[1]: runs must be positive integers',
      'cols: row clues fill 3 cells but column clues fill 2',
    ]);
  });
});

describe('inconsistent clue sets and JSON syntax errors', () => {
  it('a clue longer than its line, or totals that differ, is an InconsistentCluesError (still a PuzzleFormatError)', () => {
    const long = errorOf(() => parsePuzzleFile('width 2\nheight 2\nrows\n3\n1\ncolumns\n1\n1\n', 'long.non'));
    expect(long).toBeInstanceOf(InconsistentCluesError);
    expect([long.line, long.field]).toEqual([4, 'rows[0]']);
    const totals = errorOf(() => parsePuzzleFile('{"rows":[[2],[1]],"cols":[[1],[1]]}', 't.json'));
    expect(totals).toBeInstanceOf(InconsistentCluesError);
    expect(totals.message).toBe('t.json:1: cols: inconsistent clues: row clues fill 3 cells but column clues fill 2');
    const fine = errorOf(() => parsePuzzleFile('{"rows":[[1],["x"]],"cols":[[1],[1]]}', 'x.json'));
    expect(fine).not.toBeInstanceOf(InconsistentCluesError);
  });

  it('names the line of a JSON syntax error whose message has no position', () => {
    const e = errorOf(() => parsePuzzleFile('{\n "rows": [[2],\n [1]],\n "cols": [[1],[1],\n}\n', 'broken.json'));
    expect(e.line).toBe(5);
    expect(e.message).not.toContain('\n}');
  });
});

describe('line endings and binary files (issue 33)', () => {
  const lf = writeNon(parseNon(fixture(readdirNon()), 'a.non'));
  function readdirNon(): string {
    return readdirSync(join(import.meta.dirname, 'fixtures')).find((f) => f.endsWith('.non'))!;
  }

  it('reads a .non with LF, CRLF and old-Mac CR line endings alike', () => {
    const want = parseNon(lf, 'a.non');
    expect(parseNon(lf.replace(/\n/g, '\r\n'), 'a.non')).toEqual(want);
    expect(parseNon(lf.replace(/\n/g, '\r'), 'a.non')).toEqual(want);
    expect(parsePuzzleFile(lf.replace(/\n/g, '\r'), 'noextension')).toEqual([want]);
  });

  it('says a binary file is not a puzzle file, in one line naming the file and line, with no control bytes', () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x1b, 0x5b, 0x32, 0x4a, 0x07]);
    for (const name of ['image.non', 'image']) {
      const e = errorOf(() => parsePuzzleFile(bytes.toString('utf8'), name));
      expect(e.message).toBe(`${name}:2: not a text puzzle file (binary bytes); expected .non, .json, .ndjson or webpbn .xml`);
    }
  });

  it('never echoes control bytes from a bad value', () => {
    const e = errorOf(() => parseNon('width \u009b2J\u2028\nheight 1\n', 'x.non'));
    expect(e.message).not.toMatch(/[\u0000-\u001f\u0080-\u009f\u2028]/);
    expect(e.message).toContain('\\x9b2J');
  });
});
