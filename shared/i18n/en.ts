// The participant's page in English, the default language: every string a participant can see, in ICU MessageFormat,
// keyed by screen and element. Two parts, so the first load carries only the first screens' words (en.page.ts); the
// steps after consent (en.steps.ts) come with the board's chunk. Other languages (de.ts, ar.ts) have every key of this
// one with the same placeholders (catalogue.test.ts) in one chunk each, fetched on demand.
import { enPage } from './en.page.ts';
import { enSteps } from './en.steps.ts';

import type { Messages } from './keys.ts';

export const en: Messages = { ...enPage, ...enSteps };

export type { MessageKey, Messages } from './keys.ts';
export { MESSAGE_KEYS, isMessageKey } from './keys.ts';
