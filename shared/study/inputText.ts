// Config texts per input kind: which variant a screen shows for the input the participant is using.
import type { InputKind, InputText } from '../schema/config.ts';

/** When the kind in use has no variant: its own default, then the nearest kind (a keyboard user also has a pointer). */
const FALLBACK: Record<InputKind, readonly InputKind[]> = {
  pointer: ['keyboard', 'touch'],
  touch: ['pointer', 'keyboard'],
  keyboard: ['pointer', 'touch'],
};

/** The text to show for `input`: a plain string as it is; otherwise its variant, the default, or the nearest kind's. */
export function textFor(text: InputText, input: InputKind): string {
  if (typeof text === 'string') return text;
  const own = text[input] ?? text.default;
  if (own !== undefined) return own;
  for (const other of FALLBACK[input]) {
    const v = text[other];
    if (v !== undefined) return v;
  }
  return '';
}
