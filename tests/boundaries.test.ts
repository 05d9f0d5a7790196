// Architecture rules of DESIGN.md, enforced: shared/ is pure and imports nothing from the other layers.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

const forbidden: [RegExp, string][] = [
  [/from ['"](node:)?(fs|path|os|child_process|net|http|https|crypto|worker_threads)(\/[^'"]*)?['"]/, 'Node I/O module'],
  [/from ['"][^'"]*\/(server|client|analysis)\//, 'import from an outer layer'],
  [/\bDate\.now\s*\(/, 'Date.now()'],
  [/\bnew Date\s*\(\s*\)/, 'new Date()'],
  [/\bMath\.random\s*\(/, 'Math.random()'],
  [/\bperformance\.now\s*\(/, 'performance.now()'],
  [/\b(document|window|localStorage|fetch)\s*[.(]/, 'DOM or network access'],
];

describe('shared/ stays pure', () => {
  const files = sourceFiles(join(root, 'shared'));
  it('has source files to check', () => {
    expect(files.length).toBeGreaterThan(0);
  });
  for (const file of files) {
    it(relative(root, file), () => {
      const text = readFileSync(file, 'utf8');
      for (const [pattern, what] of forbidden) {
        const isComment = (line: string) => /^(\/\/|\/\*|\*)/.test(line.trim());
        const hit = text.split('\n').findIndex((line) => pattern.test(line) && !isComment(line));
        expect(hit, `${what} at line ${hit + 1}`).toBe(-1);
      }
    });
  }
});
