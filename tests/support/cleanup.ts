// vitest setup file: after each test file, remove the temporary directories its tests made (tempDirs.ts).
import { afterAll } from 'vitest';
import { removeTempDirs } from './tempDirs.ts';

afterAll(removeTempDirs);
