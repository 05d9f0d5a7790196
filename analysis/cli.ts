// The `nonolab` command line: a thin commander shell. The top-level help comes from the command catalog alone; a
// command's own module (analysis/commands/) is loaded, and given the whole command line to parse, only when it runs.
import { Command, CommanderError, Help } from 'commander';
import { COMMANDS, isCommandName } from './commands/catalog.ts';
import { LOADERS } from './commands/loaders.ts';
import { appVersion } from '../node/version.ts';

const DESCRIPTION = 'nonolab: behavioural studies of puzzle difficulty, Nonograms and Sudoku (puzzles, SAT metrics, analysis)';

// Output piped into a reader that stops early (`nonolab cnf … | head`): the closed pipe ends the command quietly, as
// it does for every Unix tool, not with a stack trace. (A command that writes through a stream of its own, such as
// `generate --out`, handles its stream's errors itself.)
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});
// `nonolab help <command>` is `nonolab <command> --help`, the command's own help.
const argv =
  process.argv[2] === 'help' && process.argv[3] !== undefined && isCommandName(process.argv[3])
    ? [...process.argv.slice(0, 2), process.argv[3], '--help', ...process.argv.slice(4)]
    : process.argv;

/** commander's own errors (unknown option, missing argument, bad value) exit 2 like every other bad input; help and --version exit 0. */
function exitTwo(command: Command): Command {
  return command.exitOverride((err) => {
    throw err;
  });
}
async function run(command: Command, args: string[]): Promise<void> {
  try {
    await command.parseAsync(args);
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    process.exit(err.exitCode === 0 ? 0 : 2);
  }
}

const program = exitTwo(new Command());
program.name('nonolab').description(DESCRIPTION).version(appVersion());
const defaultHelp = new Help();
program.configureHelp({
  subcommandTerm: (cmd) => {
    const name = cmd.name();
    return isCommandName(name) ? [name, COMMANDS[name].usage].filter(Boolean).join(' ') : defaultHelp.subcommandTerm(cmd);
  },
});
for (const name of Object.keys(COMMANDS) as (keyof typeof COMMANDS)[]) {
  const entry = COMMANDS[name];
  // A stand-in: it takes anything after its name and hands the whole command line to the real command.
  program
    .command(name)
    .description(entry.description)
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async () => {
      const real = exitTwo(new Command());
      real.name('nonolab').description(DESCRIPTION).version(appVersion());
      // A required option (commander's requiredOption) says so in the command's help; subcommands inherit this.
      real.configureHelp({ optionDescription: (option) => `${defaultHelp.optionDescription(option)}${option.mandatory ? ' (required)' : ''}` });
      (await LOADERS[name]())(real);
      await run(real, argv);
    });
}
await run(program, argv);
