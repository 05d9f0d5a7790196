// The `nonolab` command line: a thin commander shell; each command lives in analysis/commands/.
import { Command } from 'commander';
import { registerAll } from './commands/index.ts';
import { appVersion } from '../node/version.ts';

const program = new Command();
program
  .name('nonolab')
  .description('nonolab: behavioural studies of Nonogram difficulty (puzzles, SAT metrics, analysis)')
  .version(appVersion());
registerAll(program);
await program.parseAsync(process.argv);
