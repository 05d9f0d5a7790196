// What went wrong in JSON.parse, said in one line that never echoes the file (issue 33): V8 quotes the text around the
// bad token, which for a binary or a CSV file put its control bytes and its line breaks on the terminal.

/**
 * A one-line reason why `text` is not JSON, always starting "not valid JSON": empty, binary, or the parser's message
 * without the quoted text, with the line (unless `text` is itself one line of a file whose line the caller names).
 */
export function jsonProblem(err: unknown, text: string, options: { line?: boolean } = {}): string {
  if (text.trim() === '') return 'not valid JSON: the file is empty';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000e-\u001f\ufffd]/.test(text.slice(0, 8192))) return 'not valid JSON: binary bytes (control characters), not a text file';
  const message = (err instanceof Error ? err.message : String(err))
    .replace(/,\s*(\.\.\.)?"[\s\S]*?"(\.\.\.)? is not valid JSON$/, '')
    .replace(/ \(line \d+ column \d+\)$/, '');
  const where = /position (\d+)/.exec(message);
  const token = /^Unexpected token '?([\s\S])'?/.exec(message);
  let line: number | undefined;
  if (options.line === false) line = undefined;
  else if (where) line = text.slice(0, Number(where[1])).split('\n').length;
  else if (token && text.indexOf(token[1]) >= 0) line = text.slice(0, text.indexOf(token[1])).split('\n').length;
  const safe = message.replace(/\s*in JSON at position \d+/, '').replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `not valid JSON${line !== undefined ? ` at line ${line}` : ''} (${safe})`;
}
