// Worker-thread entry for the pause mixtures: registers tsx (so the TypeScript sources load) and runs gmmWorker.ts.
import { register } from 'tsx/esm/api';
register();
await import('./gmmWorker.ts');
