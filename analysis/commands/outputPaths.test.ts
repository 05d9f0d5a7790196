// The one pre-check of output paths (issue 33) every command with an output uses before its work.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inputProblem, outputFileProblem, outputFilesProblem, outputFolderProblem } from './outputPaths.ts';
import { tempDir } from '../../tests/support/tempDirs.ts';

describe('output paths checked before the work', () => {
  const dir = tempDir('nonolab-output-paths-');
  const file = join(dir, 'a-file');
  writeFileSync(file, 'x');
  mkdirSync(join(dir, 'sub'));

  it('a file to write: its folder exists, and it is not a folder itself', () => {
    expect(outputFileProblem('--out', join(dir, 'new.json'))).toBeNull();
    expect(outputFileProblem('--out', file)).toBeNull(); // an existing file is rewritten
    expect(outputFileProblem('--out', join(dir, 'no', 'x.json'))).toBe(`--out ${join(dir, 'no', 'x.json')}: no folder ${join(dir, 'no')}`);
    expect(outputFileProblem('--out', join(file, 'x.json'))).toBe(`--out ${join(file, 'x.json')}: no folder ${file}`);
    expect(outputFileProblem('--plot', join(dir, 'sub'))).toBe(`--plot ${join(dir, 'sub')}: is a folder, expected a file`);
    expect(outputFilesProblem([['--out', undefined], ['--raw', join(dir, 'ok.csv')], ['--plot', join(dir, 'sub')]])).toMatch(/^--plot .*: is a folder/);
  });

  it('a folder to write into: an existing folder or a path one can be made at', () => {
    expect(outputFolderProblem('--out', join(dir, 'sub'))).toBeNull();
    expect(outputFolderProblem('--out', join(dir, 'new', 'deeper'))).toBeNull();
    expect(outputFolderProblem('--out', file)).toBe(`--out ${file}: is a file, expected an output folder`);
    expect(outputFolderProblem('--out', join(file, 'x'))).toBe(`--out ${join(file, 'x')}: ${file} is a file, so the output folder cannot be made`);
  });

  it('an input: exists, and is the kind asked for', () => {
    expect(inputProblem('--from', join(dir, 'sub'), 'folder')).toBeNull();
    expect(inputProblem('--from', join(dir, 'none'), 'folder')).toBe(`--from ${join(dir, 'none')}: no such folder`);
    expect(inputProblem('--codes', join(dir, 'sub'), 'file')).toBe(`--codes ${join(dir, 'sub')}: is a folder, expected a file`);
  });
});
