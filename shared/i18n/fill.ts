// The first screens' formatter: plain {name} placeholders only, a few bytes in the first load. The whole ICU subset
// (format.ts: plurals, selects, numbers) comes with the steps' words and with every other language's catalogue.
import type { MessageArgs } from './format.ts';

/** `message` with its {name} placeholders filled in (a missing one stays as it is, as formatMessage leaves it). */
export const fill = (message: string, args: MessageArgs = {}): string => message.replace(/\{(\w+)\}/g, (all, name: string) => (args[name] === undefined ? all : String(args[name])));
