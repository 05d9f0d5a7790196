// How to load each command of the catalog: its module's register function, imported when the command runs (the
// modules import the catalog for their descriptions; this file is the only one that imports them, and only lazily).
import type { Command } from 'commander';
import type { CommandName } from './catalog.ts';

export const LOADERS: Record<CommandName, () => Promise<(program: Command) => void>> = {
  'validate-config': async () => (await import('./validateConfig.ts')).registerValidateConfig,
  sat: async () => (await import('./sat.ts')).registerSat,
  cnf: async () => (await import('./cnf.ts')).registerCnf,
  infer: async () => (await import('./infer.ts')).registerInfer,
  measure: async () => (await import('./measure.ts')).registerMeasure,
  select: async () => (await import('./select.ts')).registerSelect,
  'plot-metrics': async () => (await import('./plotMetrics.ts')).registerPlotMetrics,
  phase: async () => (await import('./phase.ts')).registerPhase,
  gmm: async () => (await import('./gmm.ts')).registerGmm,
  bt: async () => (await import('./bt.ts')).registerBt,
  lmm: async () => (await import('./lmm.ts')).registerLmm,
  spearman: async () => (await import('./spearman.ts')).registerSpearman,
  pca: async () => (await import('./pca.ts')).registerPca,
  simulate: async () => (await import('./simulate.ts')).registerSimulate,
  analyze: async () => (await import('./analyze.ts')).registerAnalyze,
  trajectories: async () => (await import('./trajectories.ts')).registerTrajectories,
  generate: async () => (await import('./generate.ts')).registerGenerate,
  solve: async () => (await import('./solve.ts')).registerSolve,
  'from-image': async () => (await import('./fromImage.ts')).registerFromImage,
  pack: async () => (await import('./pack.ts')).registerPack,
  plan: async () => (await import('./plan.ts')).registerPlan,
  migrate: async () => (await import('./migrate.ts')).registerMigrate,
  study: async () => (await import('./study.ts')).registerStudy,
  user: async () => (await import('./user.ts')).registerUser,
};
