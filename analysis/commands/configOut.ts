// Writing a puzzle set into a study config (select --config, pack --config): the config read, its puzzles replaced,
// the whole checked against the schema before anything is written.
import { readFileSync } from 'node:fs';
import { StudyConfig } from '../../shared/schema/config.ts';
import type { Puzzle } from '../../shared/schema/puzzle.ts';

/**
 * The text of `configPath` with its `puzzles` replaced by `puzzles`, or the error to print (file, field, problem).
 * `what` names the puzzles in the message ("selected", "packed").
 */
export function configWithPuzzles(configPath: string, puzzles: readonly Puzzle[], what: string): { text: string } | { error: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(configPath, 'utf8'));
  } catch (err) {
    return { error: `${configPath}: cannot read JSON (${(err as Error).message})` };
  }
  const config = { ...(raw as object), puzzles };
  const parsed = StudyConfig.safeParse(config);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { error: `${configPath}: with the ${what} puzzles, field ${issue.path.join('.')}: ${issue.message}` };
  }
  return { text: JSON.stringify(config, null, 2) + '\n' };
}
