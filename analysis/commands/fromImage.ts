// `nonolab from-image FILE --size 20x20 [--threshold auto|N] [--invert] [--max-level K] [--max-changes N] [--out FILE] [--preview FILE.svg]`: a picture into a unique puzzle.
import { readFileSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import sharp from 'sharp';
import { difficulty, gridToRows, puzzleId, FILLED } from '../../shared/nonogram/index.ts';
import type { Grid } from '../../shared/nonogram/index.ts';
import { makeUnique, otsuThreshold, thresholdGrid } from '../../shared/nonogram/fromPicture.ts';
import type { ChangedCell, MakeUniqueOptions, MakeUniqueResult } from '../../shared/nonogram/fromPicture.ts';
import { satMetricsRecord } from '../../shared/sat/index.ts';
import type { Puzzle } from '../../shared/schema/puzzle.ts';
import { commandDescription } from './catalog.ts';
import { outputFilesProblem } from './outputPaths.ts';

export class ImageError extends Error {}

/**
 * Decode any image sharp reads (PNG, JPEG, WebP, SVG, GIF, TIFF, AVIF), flatten transparency onto
 * white, and resample it to one grey value per board cell. Downscaling averages (libvips shrinks by
 * box filter, then Lanczos-3 for the fractional rest); the picture keeps its aspect ratio and is
 * centred on white ("contain"). Throws ImageError naming the file when it cannot be decoded.
 */
export async function imageToGray(file: string, width: number, height: number): Promise<Uint8Array> {
  let input: Buffer;
  try {
    input = readFileSync(file);
  } catch (err) {
    throw new ImageError(`${file}: cannot read (${(err as Error).message})`);
  }
  if (input.length === 0) throw new ImageError(`${file}: the file is empty`);
  try {
    const meta = await sharp(input).metadata();
    if (!meta.width || !meta.height) throw new ImageError(`${file}: the image has no pixels`);
    const { data, info } = await sharp(input)
      .flatten({ background: '#ffffff' })
      .resize(width, height, { fit: 'contain', background: '#ffffff', kernel: 'lanczos3' })
      .grayscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.width !== width || info.height !== height || info.channels !== 1) throw new ImageError(`${file}: unexpected decoded shape ${info.width}x${info.height}x${info.channels}`);
    return new Uint8Array(data.buffer, data.byteOffset, data.length);
  } catch (err) {
    if (err instanceof ImageError) throw err;
    throw new ImageError(`${file}: not a readable image (${(err as Error).message})`);
  }
}

export interface FromImageOptions {
  width: number;
  height: number;
  /** 'auto' (Otsu) or a grey level 0..255. */
  threshold: 'auto' | number;
  invert: boolean;
  maxLevel?: number;
  maxChanges?: number;
}

export interface FromImageResult {
  record: Puzzle & { changed_cells: ChangedCell[]; source: Record<string, unknown>; saved: boolean };
  picture: Grid;
  result: MakeUniqueResult;
}

/** The whole pipeline, without output: decode, threshold, make unique, build the puzzle record. */
export async function puzzleFromImage(file: string, options: FromImageOptions, onChange?: MakeUniqueOptions['onChange']): Promise<FromImageResult> {
  const gray = await imageToGray(file, options.width, options.height);
  let lo = 255;
  let hi = 0;
  for (const v of gray) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (lo === hi && options.threshold === 'auto') throw new ImageError(`${file}: the picture is blank at ${options.width}x${options.height} (every cell has grey level ${lo}): nothing to draw`);
  const threshold = options.threshold === 'auto' ? otsuThreshold(gray) : options.threshold;
  const picture = thresholdGrid(gray, options.width, options.height, threshold, options.invert);
  let filled = 0;
  for (const c of picture.cells) if (c === FILLED) filled++;
  if (filled === 0 || filled === picture.cells.length) {
    throw new ImageError(`${file}: the picture is ${filled === 0 ? 'empty' : 'solid'} at ${options.width}x${options.height} with threshold ${threshold}${options.invert ? ' (inverted)' : ''}: nothing to draw`);
  }
  const result = makeUnique(picture, { maxChanges: options.maxChanges, maxLevel: options.maxLevel, onChange });
  const clues = result.clues;
  const record: FromImageResult['record'] = {
    id: puzzleId(clues),
    width: options.width,
    height: options.height,
    rows: clues.rows,
    cols: clues.cols,
    solution: gridToRows(result.grid),
    metrics: {
      human: difficulty(clues, { forcedCells: false }),
      ...(satMetricsRecord(clues) as unknown as Record<string, unknown>),
      // Provenance that survives every puzzle reader (they keep metrics, drop unknown top-level fields).
      picture: { file: file.split(/[\\/]/).pop() ?? file, changed_cells: result.changed.length, saved: result.saved },
    },
    changed_cells: result.changed,
    saved: result.saved,
    source: { kind: 'image', file: file.split(/[\\/]/).pop() ?? file, threshold, threshold_method: options.threshold === 'auto' ? 'otsu' : 'fixed', invert: options.invert, picture: gridToRows(picture) },
  };
  return { record, picture, result };
}

/** A side-by-side SVG: the thresholded picture, and the puzzle's solution with changed cells outlined in red. */
export function previewSvg(picture: Grid, solution: Grid, changed: ChangedCell[], title: string): string {
  const cell = Math.max(6, Math.min(16, Math.floor(320 / Math.max(picture.width, picture.height))));
  const gap = 24;
  const top = 28;
  const w = picture.width * cell;
  const h = picture.height * cell;
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const board = (g: Grid, x0: number): string => {
    const parts: string[] = [`<rect x="${x0}" y="${top}" width="${w}" height="${h}" fill="#fff" stroke="#999"/>`];
    for (let r = 0; r < g.height; r++) {
      for (let c = 0; c < g.width; c++) {
        if (g.cells[r * g.width + c] === FILLED) parts.push(`<rect x="${x0 + c * cell}" y="${top + r * cell}" width="${cell}" height="${cell}" fill="#222"/>`);
      }
    }
    return parts.join('');
  };
  const x1 = w + gap;
  const marks = changed.map((ch) => `<rect x="${x1 + ch.col * cell + 1}" y="${top + ch.row * cell + 1}" width="${cell - 2}" height="${cell - 2}" fill="none" stroke="#d00" stroke-width="2"/>`).join('');
  const font = 'font-family="sans-serif" font-size="12" fill="#333"';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${2 * w + gap}" height="${h + top + 4}" viewBox="0 0 ${2 * w + gap} ${h + top + 4}">` +
    `<title>${esc(title)}</title>` +
    `<text x="0" y="16" ${font}>thresholded picture</text>` +
    `<text x="${x1}" y="16" ${font}>puzzle (${changed.length} changed, in red)</text>` +
    board(picture, 0) +
    board(solution, x1) +
    marks +
    `</svg>\n`
  );
}

interface FromImageFlags {
  size: string;
  threshold: string;
  invert?: boolean;
  maxLevel?: string;
  maxChanges?: string;
  out?: string;
  preview?: string;
}

/** Parse and check the flags; a message naming the bad flag on error. */
export function fromImageOptionsFromFlags(flags: FromImageFlags): FromImageOptions | string {
  const size = /^(\d+)x(\d+)$/i.exec(flags.size.trim());
  if (!size) return `--size must look like WIDTHxHEIGHT (e.g. 20x20), got '${flags.size}'`;
  const width = Number(size[1]);
  const height = Number(size[2]);
  if (width < 1 || height < 1 || width > 100 || height > 100) return `--size: width and height must be 1..100, got ${flags.size}`;
  let threshold: 'auto' | number = 'auto';
  if (flags.threshold !== 'auto') {
    threshold = Number(flags.threshold);
    if (!/^\d+$/.test(flags.threshold) || threshold > 255) return `--threshold must be 'auto' or an integer 0..255, got '${flags.threshold}'`;
  }
  const options: FromImageOptions = { width, height, threshold, invert: flags.invert ?? false };
  if (flags.maxLevel !== undefined) {
    const k = Number(flags.maxLevel);
    if (!/^[1-4]$/.test(flags.maxLevel)) return `--max-level must be 1, 2, 3 or 4, got '${flags.maxLevel}'`;
    options.maxLevel = k;
  }
  if (flags.maxChanges !== undefined) {
    const m = Number(flags.maxChanges);
    if (!/^\d+$/.test(flags.maxChanges)) return `--max-changes must be a non-negative integer, got '${flags.maxChanges}'`;
    options.maxChanges = m;
  }
  if (flags.preview !== undefined && !/\.svg$/i.test(flags.preview)) return `--preview writes SVG: give a file ending in .svg, got '${flags.preview}'`;
  return options;
}

export function registerFromImage(program: Command): void {
  program
    .command('from-image')
    .description(commandDescription('from-image'))
    .argument('<file>', 'the image')
    .option('--size <WxH>', 'board size, width x height (1..100 each)', '20x20')
    .option('--threshold <t>', "'auto' (Otsu's threshold) or a grey level 0..255: cells at or below it are filled", 'auto')
    .option('--invert', 'fill the light cells instead of the dark ones')
    .option('--max-level <k>', 'keep changing cells (staying unique) until the human level is at most k (1..4)')
    .option('--max-changes <n>', 'give up after changing this many cells (default: 10% of the board, at least 10)')
    .option('--out <file>', 'write the puzzle record (JSON) here instead of stdout')
    .option('--preview <file.svg>', 'write an SVG of the thresholded picture beside the puzzle, changed cells outlined')
    .action(async (file: string, flags: FromImageFlags) => {
      const options = fromImageOptionsFromFlags(flags);
      if (typeof options === 'string') {
        console.error(`from-image: ${options}`);
        process.exitCode = 2;
        return;
      }
      // Both outputs are checked before the picture is read and made unique (a preview that cannot be written must not
      // leave the puzzle written without it).
      const outProblem = outputFilesProblem([['--out', flags.out], ['--preview', flags.preview]]);
      if (outProblem) {
        console.error(`from-image: ${outProblem}`);
        process.exitCode = 2;
        return;
      }
      let out: FromImageResult;
      try {
        out = await puzzleFromImage(file, options, (c) => console.error(`from-image: change ${c.changes}: cell (row ${c.row}, col ${c.col}) -> ${c.solutions === 1 ? 'unique' : `${c.solutions}${c.solutions >= 8 ? '+' : ''} solutions`}${c.unknown !== undefined ? ` (${c.unknown} cells open to line logic and probing)` : ''}${c.level !== undefined ? `, level ${c.level}` : ''}`));
      } catch (err) {
        if (!(err instanceof ImageError)) throw err;
        console.error(`from-image: ${err.message}`);
        process.exitCode = 2;
        return;
      }
      const { record, picture, result } = out;
      const text = JSON.stringify(record) + '\n';
      try {
        if (flags.out) writeFileSync(flags.out, text);
        else process.stdout.write(text);
        if (flags.preview) writeFileSync(flags.preview, previewSvg(picture, result.grid, result.changed, `${file} -> ${record.id}`));
      } catch (err) {
        console.error(`from-image: cannot write (${(err as Error).message})`);
        process.exitCode = 2;
        return;
      }
      if (result.saved) {
        console.error(`from-image: ${file} -> ${record.id}: unique after ${result.changed.length} changed cells, level ${record.metrics?.human?.level}`);
      } else {
        console.error(`from-image: ${file} cannot be saved: ${result.reason}; the best reached (${result.changed.length} changed cells) was written with "saved": false`);
        process.exitCode = 1;
      }
    });
}
