// Benchmark: exact solution counting (`solvePuzzle`, limit 2) on random boards by size and density, beside native MiniSat on the same boards.
/*
 * Issue 16's targets: random boards at densities 0.30..0.60 (step 0.05), 20 boards each: 20x20
 * median <= 20 ms; 30x30 median <= 0.2 s and none over 5 s; 50x50 at density 0.5 median <= 2 s;
 * with the share of boards settled by line logic alone. Issue 20's comparison: 30x30 boards, 10 per
 * density, our time per verdict beside Debian's `minisat` on the block-start encoding in the same
 * run (solve, block the model's cells, solve again: the same question, answered natively), and CaDiCaL
 * when installed (bench/cadical.ts: the first solution alone, a lower bound on what a verdict costs a
 * state-of-the-art solver; it shows which boards are hard for CDCL itself, not just for ours).
 * Every board is asked twice, and both figures are printed side by side, honestly labelled:
 * "clues alone" (what `nonolab solve` does: the first solution must be found) and "known image"
 * (what `generate`, `from-image` and `measure` do: the generating grid is passed as
 * `knownSolution`, and the one question is whether another solution exists). Each target is
 * checked against both.
 * BENCH_SOLVE_PHASES=1 adds, for clues alone, the belief-propagation first phases
 * (`phases: 'marginals'`) beside the default, board by board in the same run.
 * Each board gets a deadline (CAP_MS, 5 s for 30x30: the "none over 5 s" target) so a run ends;
 * a board past it counts as "> cap" and never as a verdict. Boards are `randomSolution` grids
 * (exact fill count) from fixed seeds, so every run sees the same boards.
 * Issue 41's comparison ("pbnsolve" part): 20x20 boards (BENCH_SOLVE_PBN_SIZES=20,25 adds sizes)
 * per density, our median in process (the process has solved boards before: warm code) and our
 * first solve in a fresh process (cold: what `nonolab solve one-board.json` pays in its time_ms),
 * beside pbnsolve (Jan Wolter's solver, `-u -b`: uniqueness, wall time of the whole process) built
 * from its source when PBNSOLVE_SRC names a checkout (copied to a temporary directory and built
 * there with `make`; never vendored; the column is skipped with a message when it is absent), and
 * the ratio ours / pbnsolve; the target is a ratio <= 1 at every density. BENCH_SOLVE_COLD=0 skips
 * the fresh-process column (it spawns one node per board).
 * BENCH_SOLVE_BOARDS=N overrides the 20 boards per density (e.g. 5 for a quick look);
 * BENCH_SOLVE_PARTS=20,30,50,minisat,pbnsolve picks sections (default all; "minisat" runs the 30x30 boards
 * again if "30" is not among them); BENCH_SOLVE_DENSITIES=0.35,0.4 picks densities. The machine's load (1/5/15-minute averages and core count) is
 * printed before and after each section: on a shared machine the wall times scale with it.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { cluesOf, createGrid, randomSolution, solveLineInPlace, solvePuzzle } from '../shared/nonogram/index.ts';
import type { Clues } from '../shared/nonogram/index.ts';
import { encode, encodeBlockStart, writeDimacs } from '../shared/sat/index.ts';
import { cadicalPath, cadicalSolve, cadicalVerdict } from './cadical.ts';

const boardsPerDensity = Number(process.env.BENCH_SOLVE_BOARDS ?? 20);
const parts = (process.env.BENCH_SOLVE_PARTS ?? 'pbnsolve,20,30,50,minisat').split(',');
const load = () => `load ${loadavg().map((x) => x.toFixed(2)).join(' ')} on ${availableParallelism()} cores`;
const densities = process.env.BENCH_SOLVE_DENSITIES ? process.env.BENCH_SOLVE_DENSITIES.split(',').map(Number) : [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6];
const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// Baseline in the same run: one complete line solve of a 30-cell line (machine speed right now).
{
  const cells = createGrid(30, 1).cells;
  const n = 100_000;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    cells.fill(0);
    solveLineInPlace([3, 1, 4, 1, 5, 2], cells, 0, 30, 1);
  }
  const t = performance.now() - t0;
  console.log(`baseline: complete line solve of a 30-cell line, 6 blocks: ${((t / n) * 1000).toFixed(2)} µs`);
}

interface Run {
  density: number;
  clues: Clues;
  ms: number;
  complete: boolean;
  count: number;
  settledBy: string;
  conflicts: number;
}

type Mode = 'clues' | 'known' | 'marginals';
const withPhases = process.env.BENCH_SOLVE_PHASES === '1';

/** Solve each board: from the clues alone, with the generating grid as `knownSolution`, or with the BP phases. */
function runBoards(size: number, density: number, boards: number, capMs: number, seedBase: number, mode: Mode): Run[] {
  const runs: Run[] = [];
  for (let b = 0; b < boards; b++) {
    const grid = randomSolution(size, size, density, seedBase + Math.round(density * 1000) * 1000 + b);
    const clues = cluesOf(grid);
    const now = () => performance.now();
    const t0 = now();
    const r = solvePuzzle(clues, { now, deadline: t0 + capMs, ...(mode === 'known' ? { knownSolution: grid } : mode === 'marginals' ? { phases: 'marginals' as const } : {}) });
    runs.push({ density, clues, ms: now() - t0, complete: r.complete, count: r.count, settledBy: r.settledBy, conflicts: r.stats.conflicts });
  }
  return runs;
}

const summary = (rs: Run[]) => {
  const times = rs.map((r) => (r.complete ? r.ms : Infinity));
  return { med: median(times), max: Math.max(...times), over: rs.filter((r) => !r.complete).length, conflicts: median(rs.map((r) => (r.complete ? r.conflicts : Infinity))) };
};
const show = (ms: number) => (Number.isFinite(ms) ? fmt(ms) : '> cap');

function report(size: number, runs: Record<Mode, Run[]>, capMs: number, targetMedianMs: number, maxMs?: number): void {
  console.log(`\n${size}x${size}, ${boardsPerDensity} boards per density, cap ${fmt(capMs)} per board; target: median <= ${fmt(targetMedianMs)}${maxMs ? `, none over ${fmt(maxMs)}` : ''}`);
  console.log('         clues alone (`solve`: first solution searched)                                     | known image (`generate`: is there another?)');
  console.log(`density  median      max         over cap  unique  2+   by line  by probe  by search  by sat  target | median      max         over cap  target${withPhases ? ' | BP phases: median, conflicts (default: conflicts)' : ''}`);
  let allLine = 0;
  const verdict = (x: { med: number; max: number }) => (x.med <= targetMedianMs && (maxMs === undefined || x.max <= maxMs) ? 'met' : 'MISSED');
  for (const d of densities) {
    const rs = runs.clues.filter((r) => r.density === d);
    if (rs.length === 0) continue;
    const a = summary(rs);
    const k = summary(runs.known.filter((r) => r.density === d));
    const by = (s: string) => rs.filter((r) => r.complete && r.settledBy === s).length;
    allLine += by('line');
    const pct = (x: number) => `${Math.round((100 * x) / rs.length)}%`;
    let extra = '';
    if (withPhases) {
      const m = summary(runs.marginals.filter((r) => r.density === d));
      extra = ` | ${show(m.med)}, ${m.conflicts} (${a.conflicts})`;
    }
    console.log(
      `${d.toFixed(2)}     ${show(a.med).padEnd(11)} ${show(a.max).padEnd(11)} ${String(a.over).padEnd(9)} ` +
        `${String(rs.filter((r) => r.complete && r.count === 1).length).padEnd(7)} ${String(rs.filter((r) => r.count >= 2).length).padEnd(4)} ` +
        `${pct(by('line')).padEnd(8)} ${pct(by('probe')).padEnd(9)} ${pct(by('search')).padEnd(10)} ${pct(by('sat')).padEnd(7)} ${verdict(a).padEnd(6)} | ` +
        `${show(k.med).padEnd(11)} ${show(k.max).padEnd(11)} ${String(k.over).padEnd(9)} ${verdict(k)}${extra}`,
    );
  }
  const all = summary(runs.clues);
  const allKnown = summary(runs.known);
  console.log(`all densities: clues alone median ${show(all.med)}, known image median ${show(allKnown.med)}; settled by line logic alone ${((100 * allLine) / runs.clues.length).toFixed(0)}% of ${runs.clues.length} boards`);
}

/** Both modes (and the BP phases if asked) for every density. */
function runSize(size: number, boards: number, capMs: number, seedBase: number): Record<Mode, Run[]> {
  const out: Record<Mode, Run[]> = { clues: [], known: [], marginals: [] };
  for (const d of densities) {
    out.clues.push(...runBoards(size, d, boards, capMs, seedBase, 'clues'));
    out.known.push(...runBoards(size, d, boards, capMs, seedBase, 'known'));
    if (withPhases) out.marginals.push(...runBoards(size, d, boards, capMs, seedBase, 'marginals'));
  }
  return out;
}

// Issue 41: beside pbnsolve, per size and density; ours in process (warm) and in a fresh process (cold).
if (parts.includes('pbnsolve')) {
  const tmp = mkdtempSync(join(tmpdir(), 'nonolab-pbn-'));
  const pbnsolve = buildPbnsolve(tmp);
  const sizes = (process.env.BENCH_SOLVE_PBN_SIZES ?? '20').split(',').map(Number);
  const cold = process.env.BENCH_SOLVE_COLD !== '0';
  const capS = 10;
  const here = dirname(fileURLToPath(import.meta.url));
  const coldScript = join(tmp, 'cold.mjs');
  writeFileSync(
    coldScript,
    `import { readFileSync } from 'node:fs';\nimport { performance } from 'node:perf_hooks';\nconst { solvePuzzle } = await import(${JSON.stringify(join(here, '..', 'shared', 'nonogram', 'index.ts'))});\n` +
      `const c = JSON.parse(readFileSync(process.argv[2], 'utf8'));\nconst t0 = performance.now();\nconst r = solvePuzzle(c, { now: () => performance.now(), deadline: t0 + ${capS * 1000} });\n` +
      `process.stdout.write(JSON.stringify({ ms: performance.now() - t0, complete: r.complete, count: r.count }));\n`,
  );
  console.log(`\n[${load()}]`);
  console.log(`Beside pbnsolve (issue 41): ${boardsPerDensity} boards per size and density, cap ${capS} s each; medians, a board past the cap counts as infinite`);
  if (pbnsolve) console.log(`pbnsolve: ${pbnsolve} (built from PBNSOLVE_SRC=${process.env.PBNSOLVE_SRC}), \`-u -b\`, wall time of the whole process (about 1-2 ms of it is process start)`);
  else console.log(process.env.PBNSOLVE_SRC ? `pbnsolve: skipped, could not build it from PBNSOLVE_SRC=${process.env.PBNSOLVE_SRC} (see the make output above)` : 'pbnsolve: skipped, PBNSOLVE_SRC is not set (a checkout of pbnsolve\'s source, e.g. github.com/avi-levy/pbnsolve; built here, never vendored)');
  console.log('ours in process: solvePuzzle in this process after other boards (warm code); ours cold: the first solve in a fresh node process (what `nonolab solve one-board.json` reports)');
  // The hard band (25x25 and up): CaDiCaL's whole verdict on the line-GAC CNF as a second anchor (target: ours <= 2x it).
  const withCadical = Boolean(cadicalPath) && sizes.some((s) => s >= 25);
  if (withCadical) console.log(`and, from 25x25 up, CaDiCaL (${cadicalPath}) on the line-GAC CNF: the whole verdict (solve, block the model's cells, solve again), wall time of both calls, ${capS} s cap for both together (ours: ${capS} s for the verdict)`);
  else if (sizes.some((s) => s >= 25)) console.log('(CaDiCaL not installed: apt-get install cadical adds its verdict time as the hard band\'s second anchor)');
  console.log(`size   density  ours in process  ours cold    ${pbnsolve ? 'pbnsolve     ratio (in process / pbnsolve)  ratio (cold / pbnsolve)  verdicts agree  pbnsolve over cap  ' : ''}${withCadical ? 'cadical verdict  ours / cadical per board      cadical over cap  ' : ''}ours over cap  target`);
  if (sizes.some((s) => s >= 25)) console.log('(from 25x25 up the ratios are per board: the median, over the boards the anchor decided within its cap, of our time over its time, ours past the cap counting as infinite; targets there: <= 1 against pbnsolve, deciding at least as many boards, and <= 2 against CaDiCaL)');
  // Warm up the code on boards that are not measured.
  for (let w = 0; w < 10; w++) solvePuzzle(cluesOf(randomSolution(20, 20, 0.45, 7_000 + w)));
  for (const size of sizes) {
    for (const d of densities) {
      const warm: number[] = [];
      const coldMs: number[] = [];
      const theirs: number[] = [];
      const cad: number[] = [];
      let agree = 0;
      let compared = 0;
      for (let b = 0; b < boardsPerDensity; b++) {
        const grid = randomSolution(size, size, d, size * 1_000_000 + Math.round(d * 1000) * 1000 + b);
        const clues = cluesOf(grid);
        const t0 = performance.now();
        const r = solvePuzzle(clues, { now: () => performance.now(), deadline: t0 + capS * 1000 });
        warm.push(r.complete ? performance.now() - t0 : Infinity);
        const jsonPath = join(tmp, 'b.json');
        writeFileSync(jsonPath, JSON.stringify(clues));
        if (cold) {
          const run = spawnSync(process.execPath, ['--import', 'tsx', coldScript, jsonPath], { encoding: 'utf8' });
          const out = run.status === 0 ? (JSON.parse(run.stdout) as { ms: number; complete: boolean }) : undefined;
          coldMs.push(out && out.complete ? out.ms : Infinity);
        }
        if (withCadical && size >= 25) {
          const v = cadicalVerdict(encode(clues, 'line-gac'), size * size, capS, tmp);
          cad.push(v.verdict === undefined ? Infinity : v.ms);
          if (v.verdict !== undefined && r.complete && Math.min(r.count, 2) !== v.verdict) console.log(`!! ${size}x${size} ${d} board ${b}: CaDiCaL's verdict ${v.verdict} differs from ours ${Math.min(r.count, 2)}`);
        }
        if (pbnsolve) {
          const nonPath = join(tmp, 'b.non');
          const line = (c: number[]) => (c.length ? c.join(',') : '0');
          writeFileSync(nonPath, [`width ${size}`, `height ${size}`, '', 'rows', ...clues.rows.map(line), '', 'columns', ...clues.cols.map(line), ''].join('\n'));
          const t1 = performance.now();
          const run = spawnSync(pbnsolve, ['-u', '-b', `-x${capS}`, nonPath], { encoding: 'utf8', timeout: (capS + 5) * 1000 });
          const ms = performance.now() - t1;
          const verdict = /\bunique\b/.test(run.stdout) ? 1 : /\bmultiple\b/.test(run.stdout) ? 2 : /contradiction/.test(run.stdout) ? 0 : -1;
          theirs.push(verdict < 0 ? Infinity : ms);
          if (verdict >= 0 && r.complete) {
            compared++;
            if (Math.min(r.count, 2) === verdict) agree++;
          }
        }
      }
      const ours = median(warm);
      const oursCold = cold ? median(coldMs) : NaN;
      const cell = (ms: number) => (Number.isNaN(ms) ? '-' : show(ms));
      const ratioTo = (a: number, b: number) => (Number.isFinite(a) && Number.isFinite(b) ? (a / b).toFixed(2) : '-');
      // Targets (issue 41): ours in process <= pbnsolve's median; from 25x25 up also <= 2x CaDiCaL's verdict.
      const met: boolean[] = [];
      let tail = '';
      /** Board by board over the boards the anchor decided: the median of ours / its time (ours past the cap: infinite). */
      const perBoard = (anchor: number[]) => {
        const rs = anchor.flatMap((a, k) => (Number.isFinite(a) ? [warm[k] / a] : []));
        return { n: rs.length, ratio: median(rs) };
      };
      const decided = (ts: number[]) => ts.filter(Number.isFinite).length;
      const showPer = (p: { n: number; ratio: number }) => (p.n ? `${Number.isFinite(p.ratio) ? p.ratio.toFixed(2) : 'inf'} (${p.n} boards)` : '-');
      if (pbnsolve) {
        const pm = median(theirs);
        // 20x20: medians. The hard band: most medians are past the cap, so board by board (and we decide at least as many).
        const pb = perBoard(theirs);
        met.push(size >= 25 ? pb.n > 0 && pb.ratio <= 1 && decided(warm) >= decided(theirs) : Number.isFinite(ours) && ours <= pm);
        tail += `${show(pm).padEnd(12)} ${(size >= 25 ? `${showPer(pb)} per board` : ratioTo(ours, pm)).padEnd(30)} ${ratioTo(oursCold, pm).padEnd(24)} ${`${agree}/${compared}`.padEnd(15)} ${String(theirs.filter((t) => !Number.isFinite(t)).length).padEnd(18)} `;
      }
      if (withCadical) {
        if (size >= 25) {
          // Medians past the cap say nothing about the ratio; board by board, over the boards CaDiCaL decided, they do.
          const pc = perBoard(cad);
          met.push(pc.n > 0 && pc.ratio <= 2);
          tail += `${show(median(cad)).padEnd(16)} ${showPer(pc).padEnd(29)} ${String(cad.filter((t) => !Number.isFinite(t)).length).padEnd(17)} `;
        } else tail += `${'-'.padEnd(16)} ${'-'.padEnd(29)} ${'-'.padEnd(17)} `;
      }
      tail += `${String(warm.filter((t) => !Number.isFinite(t)).length).padEnd(14)} ${met.length ? (met.every(Boolean) ? 'met' : 'MISSED') : '-'}`;
      console.log(`${`${size}x${size}`.padEnd(6)} ${d.toFixed(2)}     ${show(ours).padEnd(16)} ${cell(oursCold).padEnd(12)} ${tail}`);
      // The hard band board by board: the medians above can hide which solver decided which board.
      if (size >= 25) console.log(`  board by board (ours / pbnsolve / cadical): ${warm.map((w, k) => `${show(w)} / ${pbnsolve ? show(theirs[k]) : '-'} / ${withCadical ? show(cad[k]) : '-'}`).join('; ')}`);
    }
  }
  console.log(`[${load()}]`);
  rmSync(tmp, { recursive: true, force: true });
}

if (parts.includes('20')) {
  console.log(`\n[${load()}]`);
  report(20, runSize(20, boardsPerDensity, 5000, 20_000_000), 5000, 20);
  console.log(`[${load()}]`);
}

let t30: Run[] = [];
if (parts.includes('30') || parts.includes('minisat')) {
  if (parts.includes('30')) {
    console.log(`\n[${load()}]`);
    const runs = runSize(30, boardsPerDensity, 5000, 30_000_000);
    t30 = runs.clues;
    report(30, runs, 5000, 200, 5000);
    console.log(`[${load()}]`);
  } else for (const d of densities) t30.push(...runBoards(30, d, Math.min(boardsPerDensity, 10), 5000, 30_000_000, 'clues'));
}

if (parts.includes('50')) {
  console.log(`\n[${load()}]`);
  for (const mode of ['clues', 'known'] as const) {
    const runs = runBoards(50, 0.5, Math.min(boardsPerDensity, 10), 10_000, 50_000_000, mode);
    const { med, max, over } = summary(runs);
    const share = (s: string) => `${Math.round((100 * runs.filter((r) => r.complete && r.settledBy === s).length) / runs.length)}%`;
    console.log(
      `50x50 at density 0.50, ${mode === 'clues' ? 'clues alone' : 'known image'}, ${runs.length} boards, cap 10 s: median ${show(med)} (target <= 2 s: ${med <= 2000 ? 'met' : 'MISSED'}), max ${show(max)}, ` +
        `unique ${runs.filter((r) => r.complete && r.count === 1).length}, 2+ ${runs.filter((r) => r.count >= 2).length}, over cap ${over}; ` +
        `settled by line logic alone ${share('line')}, probe ${share('probe')}, search ${share('search')}, sat ${share('sat')}`,
    );
  }
  console.log(`[${load()}]`);
}

// Issue 20: the first 10 30x30 boards per density, beside native MiniSat in the same run.
const minisat = ['/usr/bin/minisat', '/usr/local/bin/minisat'].find((p) => spawnSync(p, ['--help']).error === undefined);
if (!parts.includes('minisat')) {
  // not asked for
} else if (!minisat) console.log('\n30x30 against native MiniSat: skipped, no minisat binary (apt-get install minisat)');
else {
  const tmp = mkdtempSync(join(tmpdir(), 'nonolab-solvebench-'));
  const capS = 5;
  /** Native verdict: solve, block the model's cells, solve again; wall time of both runs. */
  const native = (clues: Clues): { ms: number; verdict: string } => {
    const cnf = encodeBlockStart(clues);
    const cells = clues.rows.length * clues.cols.length;
    const inPath = join(tmp, 'b.cnf');
    const outPath = join(tmp, 'b.out');
    writeFileSync(inPath, writeDimacs({ numVars: cnf.numVars, clauses: cnf.clauses }));
    let t0 = performance.now();
    spawnSync(minisat, ['-verb=0', `-cpu-lim=${capS}`, inPath, outPath], { encoding: 'utf8' });
    let ms = performance.now() - t0;
    const out = readFileSync(outPath, 'utf8');
    if (out.startsWith('UNSAT')) return { ms, verdict: '0' };
    if (!out.startsWith('SAT')) return { ms, verdict: '> cap' };
    const model = out.split(/\s+/).slice(1).map(Number).filter((l) => l !== 0 && Math.abs(l) <= cells);
    writeFileSync(inPath, writeDimacs({ numVars: cnf.numVars, clauses: [...cnf.clauses, model.map((l) => -l)] }));
    t0 = performance.now();
    spawnSync(minisat, ['-verb=0', `-cpu-lim=${capS}`, inPath, outPath], { encoding: 'utf8' });
    ms += performance.now() - t0;
    const second = readFileSync(outPath, 'utf8');
    return { ms, verdict: second.startsWith('UNSAT') ? '1' : second.startsWith('SAT') ? '2' : '> cap' };
  };
  console.log(`\n30x30, 10 boards per density: solvePuzzle (auto) beside native MiniSat (${minisat}, block-start CNF, solve + blocking clause + solve; ${capS} s CPU cap per call); medians, boards past a cap count as infinite`);
  // CaDiCaL (if installed) on the line-GAC CNF, asked for the first solution only: half of a verdict, a lower bound on its cost.
  if (cadicalPath) console.log(`and CaDiCaL (${cadicalPath}, line-GAC CNF, first solution only: a lower bound on a verdict; ${capS} s wall cap)`);
  else console.log('(CaDiCaL not installed: apt-get install cadical adds it as a second anchor)');
  console.log(`density  ours median  minisat median  ours/minisat  verdicts agree  ours over cap  minisat over cap${cadicalPath ? '  cadical 1st solution median  cadical over cap' : ''}`);
  for (const d of densities) {
    const rs = t30.filter((r) => r.density === d).slice(0, 10);
    const nat = rs.map((r) => native(r.clues));
    const ours = median(rs.map((r) => (r.complete ? r.ms : Infinity)));
    const theirs = median(nat.map((n) => (n.verdict === '> cap' ? Infinity : n.ms)));
    let agree = 0;
    let compared = 0;
    rs.forEach((r, k) => {
      if (!r.complete || nat[k].verdict === '> cap') return;
      compared++;
      if (String(Math.min(r.count, 2)) === nat[k].verdict) agree++;
    });
    const cad = cadicalPath ? rs.map((r) => cadicalSolve(encode(r.clues, 'line-gac'), capS, tmp)) : [];
    const cadMed = median(cad.map((c) => (c.result === 'UNKNOWN' ? Infinity : c.ms)));
    const cadCols = cadicalPath ? `  ${(Number.isFinite(cadMed) ? fmt(cadMed) : '> cap').padEnd(27)}  ${cad.filter((c) => c.result === 'UNKNOWN').length}` : '';
    const ratio = Number.isFinite(ours) && Number.isFinite(theirs) ? (ours / theirs).toFixed(2) : '-';
    console.log(
      `${d.toFixed(2)}     ${(Number.isFinite(ours) ? fmt(ours) : '> cap').padEnd(12)} ${(Number.isFinite(theirs) ? fmt(theirs) : '> cap').padEnd(15)} ${ratio.padEnd(13)} ${`${agree}/${compared}`.padEnd(15)} ${String(rs.filter((r) => !r.complete).length).padEnd(14)} ${String(nat.filter((n) => n.verdict === '> cap').length).padEnd(16)}${cadCols}`,
    );
  }
  rmSync(tmp, { recursive: true, force: true });
}

/**
 * pbnsolve built from the checkout PBNSOLVE_SRC names (its Makefile in the top directory or in src/),
 * copied into `tmp` first so the checkout is left as it is, and made from clean (some copies carry
 * stale object files). Undefined when PBNSOLVE_SRC is unset or the build fails (the make output is shown).
 */
function buildPbnsolve(tmp: string): string | undefined {
  const src = process.env.PBNSOLVE_SRC;
  if (!src) return undefined;
  const top = existsSync(join(src, 'src', 'Makefile')) ? join(src, 'src') : src;
  if (!existsSync(join(top, 'Makefile'))) {
    console.log(`pbnsolve: no Makefile in ${src} or ${join(src, 'src')}`);
    return undefined;
  }
  const dir = join(tmp, 'pbnsolve');
  cpSync(top, dir, { recursive: true });
  for (const f of readdirSync(dir)) if (f.endsWith('.o') || f === 'pbnsolve') rmSync(join(dir, f));
  const make = spawnSync('make', ['-C', dir, 'pbnsolve'], { encoding: 'utf8' });
  const bin = join(dir, 'pbnsolve');
  if (make.status !== 0 || !existsSync(bin)) {
    console.log(`pbnsolve: make failed:\n${(make.stdout + make.stderr).split('\n').slice(-15).join('\n')}`);
    return undefined;
  }
  return bin;
}
