// Writing a puzzle set into a study config (select --config, pack --config): the config read, its puzzles replaced,
// the whole checked against the schema before anything is written.
import { readFileSync } from 'node:fs';
import { StudyConfig } from '../../shared/schema/config.ts';
import type { Puzzle } from '../../shared/schema/puzzle.ts';
import { jsonProblem } from '../../shared/jsonError.ts';

/** The config file read as a JSON object, or the one-line reason it cannot be (missing, empty, binary, not JSON, not an object). */
function readConfigJson(configPath: string): { raw: object } | { error: string } {
  let text: string;
  try {
    text = readFileSync(configPath, 'utf8');
  } catch (err) {
    return { error: `${configPath}: cannot read (${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message})` };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { error: `${configPath}: ${jsonProblem(err, text)}` };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { error: `${configPath}: expected a study config (a JSON object)` };
  return { raw };
}

/** Why `configPath` cannot be the study config a command fills (checked before the work), or null. */
export function configFileProblem(configPath: string): string | null {
  const read = readConfigJson(configPath);
  if ('error' in read) return read.error;
  // Everything but its puzzles (which the command replaces) must already be a valid study config.
  const parsed = StudyConfig.safeParse(read.raw);
  const issues = parsed.success ? [] : parsed.error.issues.filter((issue) => issue.path[0] !== 'puzzles');
  if (issues.length === 0) return null;
  const first = issues[0];
  return `${configPath}: not a valid study config (${issues.length} problem${issues.length > 1 ? 's' : ''}; the first: field ${first.path.join('.') || '(root)'}: ${first.message}); \`nonolab validate-config ${configPath}\` lists them all`;
}

/**
 * The text of `configPath` with its `puzzles` replaced by `puzzles`, or the error to print (file, field, problem).
 * `what` names the puzzles in the message ("selected", "packed"); every problem is listed, and one with a puzzle names
 * it by id, and by the file it came from when `fileOf` knows it (its index in the new set means nothing to the user).
 */
export function configWithPuzzles(configPath: string, puzzles: readonly Puzzle[], what: string, fileOf: (id: string) => string | undefined = () => undefined, extra: Record<string, unknown> = {}): { text: string } | { error: string } {
  const read = readConfigJson(configPath);
  if ('error' in read) return read;
  const raw = read.raw;
  const config = { ...(raw as object), puzzles, ...extra };
  const parsed = StudyConfig.safeParse(config);
  if (!parsed.success) {
    // Every problem, one a line; one with a puzzle names it (and its file), since its index in the new set means nothing.
    const lines = parsed.error.issues.map((issue) => {
      const [top, index] = issue.path;
      const puzzle = top === 'puzzles' && typeof index === 'number' ? puzzles[index] : undefined;
      if (!puzzle) return `${configPath}: with the ${what} puzzles, field ${issue.path.join('.')}: ${issue.message}`;
      const file = fileOf(puzzle.id);
      const field = issue.path.slice(2).join('.');
      return `${file ? `${file}: ` : ''}puzzle ${puzzle.id}${field ? `, field ${field}` : ''}: ${issue.message} (written into ${configPath} with the ${what} puzzles)`;
    });
    return { error: lines.join('\n') };
  }
  return { text: JSON.stringify(config, null, 2) + '\n' };
}
