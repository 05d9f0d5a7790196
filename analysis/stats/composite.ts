// z-mean composite: moved to shared/stats/composite.ts (the server's participants export uses it too); re-exported here.
export * from '../../shared/stats/composite.ts';
