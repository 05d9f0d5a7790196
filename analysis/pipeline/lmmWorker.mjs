// Worker-thread entry for mixed-model fits: registers tsx (so the TypeScript sources load) and runs lmmWorker.ts.
import { register } from 'tsx/esm/api';
register();
await import('./lmmWorker.ts');
