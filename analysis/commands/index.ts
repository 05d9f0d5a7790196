// Every offline command, registered on the one commander program. Add one line per command module.
import type { Command } from 'commander';
import { registerValidateConfig } from './validateConfig.ts';

export function registerAll(program: Command): void {
  registerValidateConfig(program);
}
