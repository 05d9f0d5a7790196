// Every offline command, registered on the one commander program. Add one line per command module.
import type { Command } from 'commander';
import { registerValidateConfig } from './validateConfig.ts';
import { registerSat } from './sat.ts';
import { registerCnf } from './cnf.ts';
import { registerInfer } from './infer.ts';

export function registerAll(program: Command): void {
  registerValidateConfig(program);
  registerSat(program);
  registerCnf(program);
  registerInfer(program);
}
