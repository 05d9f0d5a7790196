// Every offline command, registered on the one commander program. Add one line per command module.
import type { Command } from 'commander';
import { registerValidateConfig } from './validateConfig.ts';
import { registerSat } from './sat.ts';
import { registerCnf } from './cnf.ts';
import { registerInfer } from './infer.ts';
import { registerMeasure } from './measure.ts'; import { registerSelect } from './select.ts'; import { registerPlotMetrics } from './plotMetrics.ts'; import { registerPhase } from './phase.ts';
import { registerGmm } from './gmm.ts'; import { registerBt } from './bt.ts'; import { registerLmm } from './lmm.ts'; import { registerSpearman } from './spearman.ts'; import { registerPca } from './pca.ts';
import { registerSimulate } from './simulate.ts'; import { registerAnalyze } from './analyze.ts';
import { registerGenerate } from './generate.ts';
import { registerSolve } from './solve.ts';
import { registerFromImage } from './fromImage.ts';
import { registerPack } from './pack.ts';
import { registerMigrate } from './migrate.ts';

export function registerAll(program: Command): void {
  registerValidateConfig(program);
  registerSat(program);
  registerCnf(program);
  registerInfer(program);
  registerMeasure(program); registerSelect(program); registerPlotMetrics(program); registerPhase(program);
  registerGmm(program); registerBt(program); registerLmm(program); registerSpearman(program); registerPca(program);
  registerSimulate(program); registerAnalyze(program);
  registerGenerate(program);
  registerSolve(program);
  registerFromImage(program);
  registerPack(program);
  registerMigrate(program);
}
