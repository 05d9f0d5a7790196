// Architecture rules of DESIGN.md, enforced: shared/ is pure; the import graph follows the layers and has no cycle.
/*
 * The layers, innermost first (an arrow reads "may import"):
 *
 *   shared/    pure, isomorphic TypeScript           -> shared
 *   node/      Node-side code the server and CLI share (reading a study config file) -> shared, node
 *   store/     the study's store: SQLite + NDJSON or PostgreSQL, recovery's file repairs, migration -> shared, node, store
 *   server/    the Express app                        -> shared, node, store, server
 *   analysis/  the `nonolab` CLI and the statistics   -> shared, node, store, analysis
 *
 * server/ and analysis/ never import each other: the CLI's store commands (`analyze --database`, `migrate`) open the
 * store through store/, as the server does.
 *   client/    the browser app                        -> shared, client
 *   tests/, bench/   harnesses: may import any layer (bench reuses tests/support to start servers and browsers)
 *
 * Nothing outside tests/ and bench/ imports tests/ or bench/, except a unit test (`*.test.ts`, `*.test.tsx`) next to
 * its code: a test may import tests/support (e.g. the in-process test server) and whatever the harness needs, so
 * test files are held only to "no cycles" and "nothing imports a test file". The graph is read from the source text
 * (static `import`/`export ... from`, side-effect imports and `import('...')` with a literal path), type-only imports
 * included: a cycle through types is still a cycle in the plan. Packages (bare specifiers, `node:`) are not followed; a
 * Vite asset query (`./board.css?url`) is read as the file it names.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const LAYERS = ['shared', 'node', 'store', 'server', 'analysis', 'client', 'tests', 'bench', 'scripts'] as const;
type Layer = (typeof LAYERS)[number];
const MAY_IMPORT: Record<Layer, readonly Layer[]> = {
  shared: ['shared'],
  node: ['shared', 'node'],
  store: ['shared', 'node', 'store'],
  server: ['shared', 'node', 'store', 'server'],
  analysis: ['shared', 'node', 'store', 'analysis'],
  client: ['shared', 'client'],
  tests: LAYERS,
  bench: LAYERS,
  scripts: ['scripts'],
};

function sourceFiles(dir: string, withTests = false): string[] {
  const out: string[] = [];
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path, withTests));
    else if (/\.(tsx?|mjs)$/.test(name) && !name.endsWith('.d.ts') && (withTests || !isTest(path))) out.push(path);
  }
  return out;
}

const isTest = (file: string) => /\.test\.tsx?$/.test(file);
const layerOf = (file: string) => relative(root, file).split(/[\\/]/)[0] as Layer;

/** The relative import specifiers of a source text. */
export function importSpecifiers(text: string): string[] {
  const specs: string[] = [];
  const code = text
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line))
    .join('\n');
  // import/export ... from, a side-effect import, a dynamic import with a literal path
  const patterns = [
    /^\s*(?:import|export)\b[^;'"`]*?\bfrom\s*['"]([^'"]+)['"]/gm,
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const m of code.matchAll(pattern)) specs.push(m[1]);
  return specs.filter((s) => s.startsWith('.'));
}

function resolveImport(from: string, spec: string): string | null {
  // A Vite asset query (`./board.css?url`) names the file before the `?`.
  const base = resolve(dirname(from), spec.replace(/\?[\w&=-]*$/, ''));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return null;
}

/** Every source file with the files it imports. */
function importGraph(): Map<string, string[]> {
  const files = LAYERS.flatMap((l) => sourceFiles(join(root, l), true));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    // The compiled bundles (dist/, imported by the build's own tests) are build output, not part of the graph.
    const specs = importSpecifiers(text).filter((spec) => relative(root, resolve(dirname(file), spec)).split(/[\\/]/)[0] !== 'dist');
    graph.set(file, specs.map((spec) => resolveImport(file, spec) ?? `${resolve(dirname(file), spec)} (unresolved)`));
  }
  return graph;
}

/** Tarjan's strongly connected components: every cycle lies inside one component of two or more files (or a self-import). */
export function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>(), low = new Map<string, number>(), onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('the import graph follows the layers', () => {
  const graph = importGraph();
  const rel = (f: string) => relative(root, f);

  it('reads the whole repository', () => {
    for (const layer of ['shared', 'node', 'server', 'analysis', 'client', 'tests', 'bench'] as const)
      expect([...graph.keys()].filter((f) => layerOf(f) === layer).length, layer).toBeGreaterThan(0);
  });

  it('every relative import resolves to a file', () => {
    const broken = [...graph].flatMap(([file, deps]) => deps.filter((d) => d.endsWith('(unresolved)')).map((d) => `${rel(file)} -> ${rel(d)}`));
    expect(broken).toEqual([]);
  });

  it('each layer imports only the layers under it; nothing but tests and benchmarks imports tests/ or bench/', () => {
    const wrong: string[] = [];
    for (const [file, deps] of graph) {
      if (isTest(file)) continue;
      const allowed = MAY_IMPORT[layerOf(file)];
      for (const dep of deps) {
        if (!graph.has(dep) || allowed.includes(layerOf(dep))) continue;
        wrong.push(`${rel(file)} -> ${rel(dep)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('nothing imports a test file', () => {
    const wrong = [...graph].flatMap(([file, deps]) => deps.filter(isTest).map((d) => `${rel(file)} -> ${rel(d)}`));
    expect(wrong).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(cycles(graph).map((c) => c.map(rel).join(' <-> '))).toEqual([]);
  });

  it('the checks themselves see a wrong import and a cycle (positive control)', () => {
    const dynamic = 'import'; // spelt apart so that this file's own text holds no import of './y.ts'
    const sample = `import type {\n  A,\n  B,\n} from '../server/app.ts';\nexport * from './x.ts';\n// import { c } from './commented.ts';\nconst m = await ${dynamic}('./y.ts');\nimport 'z';`;
    expect(importSpecifiers(sample)).toEqual(['../server/app.ts', './x.ts', './y.ts']);
    const g = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cycles(g)).toEqual([['a', 'b', 'c']]);
    expect(cycles(new Map([['a', ['b']], ['b', []]]))).toEqual([]);
  });
});

const forbidden: [RegExp, string][] = [
  [/from ['"](node:)?(fs|path|os|child_process|net|http|https|crypto|worker_threads)(\/[^'"]*)?['"]/, 'Node I/O module'],
  [/from ['"][^'"]*\/(server|client|analysis|node|tests|bench)\//, 'import from an outer layer'],
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
