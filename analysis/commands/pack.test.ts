// `nonolab pack`: generated, imported and picture puzzles into one ordered set or study config, which `select` then works on.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { StudyConfig, nonogramsOnly } from '../../shared/schema/config.ts';
import { loadStudyConfig } from '../../node/studyConfig.ts';
import { configWithPuzzles } from './configOut.ts';
import { tempDir } from '../../tests/support/tempDirs.ts';

const root = join(import.meta.dirname, '..', '..');
const cli = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', join(root, 'analysis/cli.ts'), ...args], { cwd: root, encoding: 'utf8' });
const fixtures = join(root, 'shared/nonogram/fixtures');

describe('nonolab pack', () => {
  it('packs generated, imported and picture puzzles, easiest first, into a study config that select can use', async () => {
    const dir = tempDir('nonolab-pack-');
    const generated = join(dir, 'gen.ndjson');
    expect(cli('generate', '--size', '8x8', '--count', '6', '--seed', '5', '--out', generated).status).toBe(0);
    const image = join(dir, 'ring.png');
    await sharp(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><rect width="100" height="100" fill="#fff"/><circle cx="50" cy="50" r="35" fill="none" stroke="#000" stroke-width="14"/></svg>')).png().toFile(image);
    const picture = join(dir, 'ring.json');
    expect(cli('from-image', image, '--size', '12x12', '--out', picture).status).toBe(0);
    const out = join(dir, 'study.json');
    const r = cli('pack', generated, join(fixtures, 'simpson-sample.non'), picture, picture, '--config', join(root, 'study-config/study.json'), '--out', out);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('8 puzzles (6 generated, 1 imported, 1 from pictures)');
    expect(r.stderr).toContain('1 duplicate');
    const config = StudyConfig.parse(JSON.parse(readFileSync(out, 'utf8')));
    const set = nonogramsOnly(config.puzzles, 'pack');
    expect(set).toHaveLength(8);
    expect(new Set(set.map((p) => p.id)).size).toBe(8);
    expect(set.map((p) => p.metrics?.origin).sort()).toEqual(['generated', 'generated', 'generated', 'generated', 'generated', 'generated', 'imported', 'picture']);
    for (const p of set) {
      expect(p.metrics?.human?.unique).toBe(true);
      expect(p.metrics?.sat?.conflicts).toBeTypeOf('number');
    }
    const levels = set.map((p) => p.metrics?.human?.level as number);
    expect(levels).toEqual([...levels].sort((a, b) => a - b));
    const picked = set.find((p) => p.metrics?.origin === 'picture');
    expect(picked?.id).toBe(JSON.parse(readFileSync(picture, 'utf8')).id);

    // select reads the packed config's puzzles directly...
    const fromConfig = cli('select', '--in', out, '--metric', 'human.line_passes');
    expect(fromConfig.status, fromConfig.stderr).toBe(0);
    expect(fromConfig.stderr).toContain('select: 8 candidates');
    expect(fromConfig.stdout.trim().split('\n')).toHaveLength(6);

    // ...and the bare set (a JSON array) too.
    const bare = join(dir, 'set.json');
    expect(cli('pack', generated, join(fixtures, 'simpson-sample.non'), picture, '--order', 'sat.conflicts', '--out', bare).status).toBe(0);
    const conflicts = JSON.parse(readFileSync(bare, 'utf8')).map((p: { metrics: { sat: { conflicts: number } } }) => p.metrics.sat.conflicts);
    expect(conflicts).toEqual([...conflicts].sort((a: number, b: number) => a - b));
    const sel = cli('select', '--in', bare, '--metric', 'human.line_passes', '--out', join(dir, 'six.json'));
    expect(sel.status, sel.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'six.json'), 'utf8'))).toHaveLength(6);
  });

  it('refuses a puzzle with several solutions and an id shared by different puzzles, naming them, and writes nothing', () => {
    const dir = tempDir('nonolab-pack-');
    const twin = join(dir, 'twin.json');
    writeFileSync(twin, JSON.stringify({ id: 'twin', rows: [[1], [1]], cols: [[1], [1]] }));
    const out = join(dir, 'out.json');
    const a = cli('pack', twin, '--out', out);
    expect(a.status).toBe(2);
    expect(a.stderr).toContain(`${twin}: puzzle twin (record 0): not uniquely solvable`);
    const one = join(dir, 'one.json');
    const other = join(dir, 'other.json');
    writeFileSync(one, JSON.stringify({ id: 'same', rows: [[1], []], cols: [[1], []] }));
    writeFileSync(other, JSON.stringify({ id: 'same', rows: [[2], [2]], cols: [[2], [2]] }));
    const b = cli('pack', one, other, '--out', out);
    expect(b.status).toBe(2);
    expect(b.stderr).toContain(`${other}: puzzle same (record 0): id already used by a different puzzle in ${one}`);
    expect(() => readFileSync(out)).toThrow();
  });

  it('fills in the solution of a clue-only .non from its one solution, so the packed study config validates', () => {
    const dir = tempDir('nonolab-pack-');
    const generated = join(dir, 'gen.ndjson');
    expect(cli('generate', '--size', '6x6', '--count', '3', '--seed', '5', '--out', generated).status).toBe(0);
    // The common kind of .non: clues only, no goal line.
    const imported = join(dir, 'imported.non');
    writeFileSync(imported, readFileSync(join(fixtures, 'simpson-sample.non'), 'utf8').replace(/^goal .*$/m, ''));
    const out = join(dir, 'study.json');
    const r = cli('pack', generated, imported, '--config', join(root, 'study-config/study.json'), '--out', out);
    expect(r.status, r.stderr).toBe(0);
    const study = loadStudyConfig(out);
    const letter = study.config.puzzles.find((p) => p.metrics?.origin === 'imported');
    // simpson-sample.non's goal "11111001100110111110", as rows of its 4x5 board
    expect(letter?.solution).toEqual(['####', '#..#', '#..#', '#.##', '###.']);
    expect(nonogramsOnly(study.config.puzzles, 'pack').every((p) => p.solution?.length === p.height)).toBe(true);
  });

  it('names by file and id a clue-only puzzle without exactly one solution, and one the config refuses, and writes nothing', () => {
    const dir = tempDir('nonolab-pack-');
    const out = join(dir, 'out.json');
    const config = join(root, 'study-config/study.json');
    // Two solutions, though its recorded metrics claim one: the check that fills in the solution finds out.
    const twin = join(dir, 'twin.json');
    writeFileSync(twin, JSON.stringify({ id: 'twin', width: 2, height: 2, rows: [[1], [1]], cols: [[1], [1]], metrics: { human: { level: 1, line_passes: 1, footholds: 0, foothold_cells: 0, unique: true } } }));
    const fine = join(dir, 'fine.json');
    writeFileSync(fine, JSON.stringify({ id: 'fine', rows: [[2], [1]], cols: [[2], [1]] }));
    const a = cli('pack', fine, twin, '--config', config, '--out', out);
    expect(a.status).toBe(2);
    expect(a.stderr).toContain(`${twin}: puzzle twin (record 0): no solution recorded, and its clues have more than one solution; a study puzzle needs exactly one solution`);
    expect(a.stderr).not.toMatch(/puzzles\.\d+/);
    // A problem the config's own check finds in one puzzle is named by its file and id too, not by its index in the set.
    const bare = { id: 'bare', width: 2, height: 2, rows: [[2], [1]], cols: [[2], [1]] };
    const written = configWithPuzzles(config, [bare], 'packed', () => 'bare.non');
    expect(written).toEqual({
      error: [`${config}: with the packed puzzles, field phases.4.count: asks for 3 puzzles but the pool has 1`, `bare.non: puzzle bare, field solution: study puzzles need a solution (written into ${config} with the packed puzzles)`].join('\n'),
    });
    expect(existsSync(out)).toBe(false);
  });
});
