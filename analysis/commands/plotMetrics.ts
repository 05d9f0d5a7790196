// `nonolab plot-metrics FILE`: the histogram of a solver metric over candidate puzzles with the selected six marked (the paper's Figure 2), as SVG.
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { TopLevelSpec } from 'vega-lite';
import { loadPuzzles } from '../puzzleFile.ts';
import { selectFromPuzzles } from './select.ts';
import { metricOption, metricValueOf } from '../metric.ts';
import { commandDescription } from './catalog.ts';
import { otherKindFile } from '../kindFile.ts';
import type { Puzzle } from '../../shared/schema/puzzle.ts';
import { outputFileProblem } from './outputPaths.ts';

export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  // Loaded on first use: Vega is a megabyte of code that every other command (and `--help`) need not parse.
  const [vega, vl] = await Promise.all([import('vega'), import('vega-lite')]);
  const view = new vega.View(vega.parse(vl.compile(spec).spec), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return svg;
}

export function registerPlotMetrics(program: Command): void {
  program
    .command('plot-metrics')
    .description(commandDescription('plot-metrics'))
    .argument('<file>', 'measured puzzles (NDJSON from generate/measure)')
    .option('--kind <kind>', 'the puzzle kind: nonogram or sudoku (default: inferred from the file)')
    .option('--metric <name>', 'the metric to plot: <source>_<key> such as sat_conflicts, dfa_conflicts, human_level (old spellings conflicts, sat_dfa.conflicts accepted); a Sudoku: extended_conflicts (its default), minimal_<key>, human_level', 'sat_conflicts')
    .option('--bins <n>', 'maximum number of bins', '40')
    .option('--out <file>', 'SVG file (default: stdout)')
    .action(async (file: string, opts: { kind?: string; metric: string; bins: string; out?: string }, command: Command) => {
      const other = otherKindFile('plot-metrics', file, opts.kind);
      if (other === 'error') return;
      const metric = metricOption('--metric', other && command.getOptionValueSource('metric') === 'default' ? other.kind.defaultMetric : opts.metric);
      if (!metric) return;
      const bins = Number(opts.bins);
      if (!Number.isInteger(bins) || bins < 1) {
        console.error(`--bins must be a positive integer, got '${opts.bins}'`);
        process.exitCode = 2;
        return;
      }
      const outProblem = opts.out === undefined ? null : outputFileProblem('--out', opts.out);
      if (outProblem) {
        console.error(`plot-metrics: ${outProblem}`);
        process.exitCode = 2;
        return;
      }
      const puzzles = other ? (other.records as Puzzle[]) : loadPuzzles(file);
      if (!puzzles) return;
      const selection = selectFromPuzzles(file, puzzles, metric);
      if (!selection) return;
      const values = puzzles.map((p) => ({ id: p.id, value: metricValueOf(p, metric) as number }));
      // Labels of picks sharing a value are stacked (pixel y) so they do not overwrite each other.
      const slots = new Map<number, number>();
      const picks = selection.selected.map((s) => {
        const slot = slots.get(s.value) ?? 0;
        slots.set(s.value, slot + 1);
        return { id: s.id, value: s.value, role: s.role, label: `${s.role}: ${s.id} (${s.value})`, ypix: 316 - slot * 158 };
      });
      const title = `${metric.name} over ${selection.n} puzzles; selected: 2 lowest, 2 nearest the median, 2 highest below the top 5%`;
      const spec: TopLevelSpec = {
        $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
        title: { text: title, fontSize: 12 },
        width: 640,
        height: 320,
        layer: [
          {
            data: { values },
            mark: { type: 'bar', color: '#9aa5b1' },
            encoding: {
              x: { field: 'value', type: 'quantitative', bin: { maxbins: bins }, title: metric.name },
              y: { aggregate: 'count', type: 'quantitative', title: 'puzzles' },
            },
          },
          {
            data: { values: picks },
            mark: { type: 'rule', strokeWidth: 2 },
            encoding: {
              x: { field: 'value', type: 'quantitative' },
              color: { field: 'role', type: 'nominal', scale: { domain: ['lowest', 'median', 'highest'], range: ['#2b8a3e', '#1971c2', '#c92a2a'] }, title: 'selected' },
            },
          },
          {
            data: { values: picks },
            mark: { type: 'text', angle: 270, align: 'left', baseline: 'bottom', dy: -3, fontSize: 9 },
            encoding: {
              x: { field: 'value', type: 'quantitative' },
              y: { field: 'ypix', type: 'quantitative', scale: null },
              text: { field: 'label' },
              color: { field: 'role', type: 'nominal' },
            },
          },
        ],
      };
      const svg = await renderSvg(spec);
      if (opts.out) {
        writeFileSync(opts.out, svg);
        console.error(`plot-metrics: ${selection.n} puzzles -> ${opts.out}`);
      } else process.stdout.write(svg);
    });
}
