// Every mistake a user makes gets one line naming the file or flag and exit code 2, never a stack trace (issue 33).
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../tests/support/tempDirs.ts';

const root = join(import.meta.dirname, '..');
const cli = async (...args: string[]) => {
  try {
    const r = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(root, 'analysis/cli.ts'), ...args], { cwd: root, encoding: 'utf8' });
    return { status: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { status: e.code, stdout: e.stdout, stderr: e.stderr };
  }
};

describe('CLI mistakes: one line, exit 2', () => {
  it('option-parser errors, missing/empty/binary files and statistics inputs', async () => {
    const dir = tempDir('nonolab-mistakes-');
    const empty = join(dir, 'empty.csv');
    writeFileSync(empty, 'gap_s\n');
    const few = join(dir, 'few.csv');
    writeFileSync(few, 'gap_s\n1.5\n');
    const binary = join(dir, 'picture.non');
    writeFileSync(binary, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x1b, 0x5b, 0x32, 0x4a]));
    const cases: [string[], RegExp][] = [
      [['cnf', join(root, 'shared/nonogram/fixtures/simpson-sample.non'), '--bogus'], /unknown option '--bogus'/],
      [['gmm'], /missing required argument 'file'/],
      [['frobnicate'], /unknown command 'frobnicate'/],
      [['gmm', join(dir, 'missing.csv')], /missing\.csv/],
      [['gmm', empty], /too few/],
      [['gmm', few], /1 usable value\(s\) are too few for \d+ components \(at least \d+ needed\)/],
      [['cnf', binary], /picture\.non:2: not a text puzzle file/],
      [['infer', join(dir, 'missing.non')], /missing\.non: cannot read/],
      // analyze checks its inputs and output before the work
      [['analyze', '--logs', dir, '--puzzles', join(root, 'study-config/study.json'), '--codes', join(dir, 'missing.csv'), '--out', join(dir, 'out')], /^nonolab analyze: --codes .*missing\.csv: no such file\n$/],
      [['analyze', '--logs', dir, '--puzzles', join(root, 'study-config/study.json'), '--out', empty], /^nonolab analyze: --out .*empty\.csv: is a file, expected an output folder\n$/],
      [['analyze', '--logs', join(dir, 'nope'), '--puzzles', join(root, 'study-config/study.json'), '--out', join(dir, 'out')], /^nonolab analyze: --logs .*nope: no such folder\n$/],
      [['phase', '--sizes', '5', '--densities', '0.5', '--boards', '1', '--threads', '1', '--out', join(dir, 'no', 'such', 'summary.csv')], /^--out .*summary\.csv: no folder .*such\n$/],
    ];
    const runs = await Promise.all(cases.map(([args]) => cli(...args)));
    runs.forEach((r, i) => {
      const [args, message] = cases[i];
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
      expect(r.stderr, args.join(' ')).not.toMatch(/\n\s+at |fitGmm|bradleyTerry|zScores|[\u0000-\u0008\u000e-\u001f]/);
    });
  });

  it('help and --version still exit 0', async () => {
    const [version, help] = await Promise.all([cli('--version'), cli('gmm', '--help')]);
    expect([version.status, help.status]).toEqual([0, 0]);
  });
});
