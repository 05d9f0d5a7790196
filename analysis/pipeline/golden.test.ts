// Byte-identical outputs: a fixed simulated study analysed today gives the very bytes recorded in fixtures/golden-outputs.json (every CSV, pauses.json, report.html).
/*
 * Speed work on the pipeline (the reader, the board replay, the signals, the mixture fit, the writers) must not move
 * a single byte of what an analyst gets. The fixture holds the SHA-256 of each output file of one seeded simulated
 * study, recorded before that work; the run below must reproduce them, inline (one thread) and with the extraction
 * on two worker threads. What varies between runs by design is taken out before hashing: the report's "generated <time>" stamp and the
 * paths it names (the temporary logs directory, the checkout), pauses.json's fit_ms (a duration) and the numbers of the chart renderer's gradient ids
 * (counted per process). When an output is changed on purpose, record the
 * new hashes with NONOLAB_UPDATE_GOLDEN=1 (the test then writes the fixture) and say why in the commit.
 */
import { describe, expect, it, beforeAll } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadStudyConfig } from '../../node/studyConfig.ts';
import { simulateToDir } from '../simulate/index.ts';
import { runAnalysis } from './index.ts';
import { tempDir } from '../../tests/support/tempDirs.ts';

const configPath = join(import.meta.dirname, 'fixtures', 'study.json');
const goldenPath = join(import.meta.dirname, 'fixtures', 'golden-outputs.json');
const PARTICIPANTS = 60;
const SEED = 16;

/** The chart renderer numbers its gradients per process (gradient_0, _1, ... then _2, _3 in a second report): renumber by first appearance. */
function renumberGradients(html: string): string {
  const ids = new Map<string, number>();
  return html.replace(/gradient_\d+/g, (id) => {
    if (!ids.has(id)) ids.set(id, ids.size);
    return `gradient_${ids.get(id)}`;
  });
}

/** SHA-256 of each output file, with the run-dependent stamp and duration taken out. */
function outputHashes(dir: string, logs: string): Record<string, string> {
  const hashes: Record<string, string> = {};
  for (const f of readdirSync(dir).sort()) {
    let bytes: Buffer | string = readFileSync(join(dir, f));
    if (f === 'report.html') {
      bytes = renumberGradients(bytes.toString('utf8').replace(/ · generated [^<]*<\/p>/, '</p>').split(logs).join('LOGS').split(configPath).join('CONFIG'));
      // The measure comparison (issue 36) was added as one section: without it, the page is the one recorded before.
      const withoutMeasures = renumberGradients(bytes.replace(/<h2 id="measures">[\s\S]*?(?=<h2>Figures<\/h2>)/, ''));
      hashes['report.html without the measures section'] = createHash('sha256').update(withoutMeasures).digest('hex');
      // The strategy section (issue 37) likewise: without it, the page is the one recorded before it.
      const withoutStrategy = renumberGradients(bytes.replace(/<h2 id="strategy">[\s\S]*?(?=<h2>Figures<\/h2>)/, ''));
      hashes['report.html without the strategy section'] = createHash('sha256').update(withoutStrategy).digest('hex');
    }
    if (f === 'pauses.json') bytes = bytes.toString('utf8').replace(/\n *"fit_ms": [^\n]*/, '');
    hashes[f] = createHash('sha256').update(bytes).digest('hex');
  }
  return hashes;
}

describe(`analyze of ${PARTICIPANTS} simulated participants (seed ${SEED}) gives byte-identical outputs`, () => {
  const dir = tempDir('nonolab-golden-');
  const logs = join(dir, 'logs');
  beforeAll(() => simulateToDir({ participants: PARTICIPANTS, seed: SEED, study: loadStudyConfig(configPath) }, logs));

  it('inline, on two extraction threads and as by default (this thread and one worker sharing the extraction, the statistics worker), every file hashes as recorded', async () => {
    const runs: Record<string, Record<string, string>> = {};
    for (const parallel of [1, 2, undefined]) {
      const out = join(dir, `out-${parallel}`);
      await runAnalysis({ logs, puzzles: configPath, out, pauseThreshold: 'auto', parallel });
      runs[String(parallel)] = outputHashes(out, logs);
    }
    expect(runs[2]).toEqual(runs[1]);
    expect(runs.undefined).toEqual(runs[1]);
    if (process.env.NONOLAB_UPDATE_GOLDEN === '1') writeFileSync(goldenPath, JSON.stringify({ participants: PARTICIPANTS, seed: SEED, sha256: runs[1] }, null, 1) + '\n');
    const golden = JSON.parse(readFileSync(goldenPath, 'utf8')) as { sha256: Record<string, string> };
    expect(Object.keys(runs[1]).length).toBeGreaterThanOrEqual(10);
    expect(runs[1]).toEqual(golden.sha256);
  }, 240_000);
});
