// `nonolab from-image`: pictures drawn by the test (shapes, text, a gradient, scattered dots) become unique puzzles, checked by the CDCL path.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { cluesOf, gridFromRows, FILLED } from '../../shared/nonogram/index.ts';
import { encodeBlockStart, solveCnf } from '../../shared/sat/index.ts';
import { Puzzle } from '../../shared/schema/puzzle.ts';
import { tempDir } from '../../tests/support/tempDirs.ts';
import { puzzleFromImage, ImageError } from './fromImage.ts';

const root = join(import.meta.dirname, '..', '..');
const cli = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', join(root, 'analysis/cli.ts'), ...args], { cwd: root, encoding: 'utf8' });

const svg = (w: number, h: number, body: string) => Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="${w}" height="${h}" fill="#fff"/>${body}</svg>`);

/** The test's pictures, written by sharp in several formats. */
async function drawPictures(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  files.shapes = join(dir, 'shapes.png');
  await sharp(svg(200, 200, '<circle cx="70" cy="80" r="45" fill="#000"/><rect x="110" y="110" width="70" height="60" fill="#000"/><polygon points="20,190 60,130 100,190" fill="#333"/>')).png().toFile(files.shapes);
  files.text = join(dir, 'text.webp');
  // The underline keeps the picture from being blank on a machine without any font.
  await sharp(svg(200, 100, '<text x="10" y="75" font-size="72" font-family="sans-serif" font-weight="bold">Hi!</text><rect x="10" y="84" width="150" height="8" fill="#000"/>')).webp().toFile(files.text);
  files.gradient = join(dir, 'gradient.jpg');
  const w = 120;
  const h = 120;
  const pixels = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) pixels.fill(Math.round(255 * (0.5 + 0.5 * Math.sin(x / 12) * Math.cos(y / 17))), (y * w + x) * 3, (y * w + x) * 3 + 3);
  await sharp(pixels, { raw: { width: w, height: h, channels: 3 } }).jpeg().toFile(files.gradient);
  // Scattered squares: many swappable corners, so the thresholded board is not unique.
  files.dots = join(dir, 'dots.svg');
  writeFileSync(files.dots, svg(160, 160, Array.from({ length: 40 }, (_, i) => `<rect x="${(i * 37) % 150}" y="${(i * 53) % 150}" width="12" height="12" fill="#000"/>`).join('')));
  return files;
}

/** The independent check: the block-start CNF with the solution blocked has no model. */
function uniqueByCdcl(p: Puzzle): boolean {
  const cnf = encodeBlockStart(p);
  const first = gridFromRows(p.solution as string[]);
  expect(solveCnf({ clauses: [...cnf.clauses, ...Array.from(first.cells, (v, i) => [v === FILLED ? i + 1 : -(i + 1)])] }).result).toBe('SAT');
  const blocking = Array.from(first.cells, (v, i) => (v === FILLED ? -(i + 1) : i + 1));
  return solveCnf({ clauses: [...cnf.clauses, blocking] }).result === 'UNSAT';
}

/** Cells where two boards of # and . differ, as [row, col]. */
function differences(a: string[], b: string[]): [number, number][] {
  const out: [number, number][] = [];
  a.forEach((row, r) => [...row].forEach((ch, c) => ch !== b[r][c] && out.push([r, c])));
  return out;
}

describe('nonolab from-image', () => {
  it('turns shapes, text, a gradient and scattered dots into unique puzzles that differ from the picture only in changed_cells', async () => {
    const dir = tempDir('nonolab-from-image-');
    const files = await drawPictures(dir);
    let changedSomewhere = 0;
    for (const [name, file] of Object.entries(files)) {
      const { record, picture } = await puzzleFromImage(file, { width: 16, height: 16, threshold: 'auto', invert: false });
      expect(record.saved, name).toBe(true);
      expect(Puzzle.safeParse(record).success, name).toBe(true);
      expect(record.source.picture).toEqual(Array.from({ length: 16 }, (_, r) => [...Array(16)].map((_, c) => (picture.cells[r * 16 + c] === FILLED ? '#' : '.')).join('')));
      const diff = differences(record.source.picture as string[], record.solution as string[]);
      expect(diff, name).toEqual(record.changed_cells.map((c) => [c.row, c.col]));
      for (const c of record.changed_cells) expect(c.from).not.toBe(c.to);
      const clues = cluesOf(gridFromRows(record.solution as string[]));
      expect({ rows: record.rows, cols: record.cols }).toEqual(clues);
      expect(uniqueByCdcl(record), name).toBe(true);
      expect(record.metrics?.human?.unique, name).toBe(true);
      expect(record.metrics?.sat?.conflicts).toBeTypeOf('number');
      changedSomewhere += record.changed_cells.length;
    }
    expect(changedSomewhere).toBeGreaterThan(0); // the dots picture needs changes
  });

  it('--max-level 2 gives a puzzle complete line solving finishes, still unique', async () => {
    const dir = tempDir('nonolab-from-image-');
    const files = await drawPictures(dir);
    const { record } = await puzzleFromImage(files.dots, { width: 16, height: 16, threshold: 'auto', invert: false, maxLevel: 2 });
    expect(record.saved).toBe(true);
    expect(record.metrics?.human?.level).toBeLessThanOrEqual(2);
    expect(uniqueByCdcl(record)).toBe(true);
    expect(differences(record.source.picture as string[], record.solution as string[])).toEqual(record.changed_cells.map((c) => [c.row, c.col]));
  });

  it('a fixed threshold and --invert decide which cells are filled', async () => {
    const dir = tempDir('nonolab-from-image-');
    const file = join(dir, 'half.png');
    // Left half black, right half mid-grey (128).
    await sharp(svg(100, 100, '<rect width="50" height="100" fill="#000"/><rect x="50" width="50" height="100" fill="#808080"/>')).png().toFile(file);
    const dark = await puzzleFromImage(file, { width: 4, height: 4, threshold: 60, invert: false });
    expect(dark.record.source.picture).toEqual(['##..', '##..', '##..', '##..']);
    const light = await puzzleFromImage(file, { width: 4, height: 4, threshold: 60, invert: true });
    expect(light.record.source.picture).toEqual(['..##', '..##', '..##', '..##']);
    // At 200 both halves are dark: a solid board is not a picture.
    await expect(puzzleFromImage(file, { width: 4, height: 4, threshold: 200, invert: false })).rejects.toThrow(/half\.png: the picture is solid/);
  });

  it('reports a picture that cannot be saved within --max-changes, with the best it reached', () => {
    const dir = tempDir('nonolab-from-image-');
    const file = join(dir, 'cross.svg');
    writeFileSync(file, svg(160, 160, '<path d="M0 0 L160 160 M160 0 L0 160" stroke="#000" stroke-width="9"/>'));
    const out = join(dir, 'cross.json');
    const r = cli('from-image', file, '--size', '20x20', '--max-changes', '2', '--out', out);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/cannot be saved: still \d+( or more)? solutions after --max-changes 2/);
    const record = JSON.parse(readFileSync(out, 'utf8'));
    expect(record.saved).toBe(false);
    expect(record.changed_cells.length).toBeLessThanOrEqual(2);
    expect(record.metrics.human.unique).toBe(false);
    expect(differences(record.source.picture, record.solution)).toEqual(record.changed_cells.map((c: { row: number; col: number }) => [c.row, c.col]));
  });

  it('writes the record and an SVG preview from the command line', async () => {
    const dir = tempDir('nonolab-from-image-');
    const files = await drawPictures(dir);
    const out = join(dir, 'p.json');
    const preview = join(dir, 'p.svg');
    const r = cli('from-image', files.shapes, '--size', '12x10', '--out', out, '--preview', preview);
    expect(r.status, r.stderr).toBe(0);
    const record = JSON.parse(readFileSync(out, 'utf8'));
    expect(record).toMatchObject({ width: 12, height: 10, saved: true, source: { kind: 'image', file: 'shapes.png', threshold_method: 'otsu' } });
    const text = readFileSync(preview, 'utf8');
    expect(text.startsWith('<svg')).toBe(true);
    // Two boards' worth of filled cells: the picture's and the solution's.
    const filled = (record.source.picture.join('') + record.solution.join('')).split('').filter((c: string) => c === '#').length;
    expect(text.match(/fill="#222"/g)?.length).toBe(filled);
    // The preview is itself a readable image.
    const meta = await sharp(Buffer.from(text)).metadata();
    expect(meta.format).toBe('svg');
  });

  it('names the file of an unreadable, empty or blank image and exits 2, writing nothing', async () => {
    const dir = tempDir('nonolab-from-image-');
    const empty = join(dir, 'empty.png');
    writeFileSync(empty, '');
    const junk = join(dir, 'junk.jpg');
    writeFileSync(junk, 'this is not a picture');
    const blank = join(dir, 'blank.png');
    await sharp(svg(50, 50, '')).png().toFile(blank);
    const out = join(dir, 'never.json');
    for (const [file, message] of [[empty, 'the file is empty'], [junk, 'not a readable image'], [blank, 'the picture is blank'], [join(dir, 'missing.png'), 'cannot read']]) {
      const r = cli('from-image', file, '--size', '10x10', '--out', out);
      expect(r.status, file).toBe(2);
      expect(r.stderr).toContain(file);
      expect(r.stderr).toContain(message);
      await expect(puzzleFromImage(file, { width: 10, height: 10, threshold: 'auto', invert: false })).rejects.toBeInstanceOf(ImageError);
    }
    expect(() => readFileSync(out)).toThrow();
    const bad = cli('from-image', empty, '--size', '10by10');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--size');
    expect(cli('from-image', empty, '--threshold', '300').stderr).toContain('--threshold');
    expect(cli('from-image', empty, '--max-level', '7').stderr).toContain('--max-level');
  });
});
