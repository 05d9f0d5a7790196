// Worker-thread entry for extraction: registers tsx (so the TypeScript sources load) and runs extractWorker.ts.
import { register } from 'tsx/esm/api';
register();
await import('./extractWorker.ts');
