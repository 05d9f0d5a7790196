// What went wrong in JSON.parse, said in one line that never echoes the file (issue 33): V8 quotes the text around the
// bad token, which for a binary or a CSV file put its control bytes and its line breaks on the terminal.

/** A one-line reason why `text` is not JSON: empty, binary, or the parser's message without the quoted text, with the line. */
export function jsonProblem(err: unknown, text: string): string {
  if (text.trim() === '') return 'the file is empty, expected JSON';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000e-\u001f]/.test(text.slice(0, 8192))) return 'a binary file (control bytes), expected JSON';
  const message = (err instanceof Error ? err.message : String(err))
    .replace(/,\s*(\.\.\.)?"[\s\S]*?"(\.\.\.)? is not valid JSON$/, '')
    .replace(/ \(line \d+ column \d+\)$/, '');
  const where = /position (\d+)/.exec(message);
  const token = /^Unexpected token '?([\s\S])'?/.exec(message);
  let line: number | undefined;
  if (where) line = text.slice(0, Number(where[1])).split('\n').length;
  else if (token && text.indexOf(token[1]) >= 0) line = text.slice(0, text.indexOf(token[1])).split('\n').length;
  const safe = message.replace(/\s*in JSON at position \d+/, '').replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `not valid JSON${line !== undefined ? ` at line ${line}` : ''} (${safe})`;
}
