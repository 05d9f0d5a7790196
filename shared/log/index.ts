// The log's one reader and its shared rules: every fold over a session's records (resume, intake, dashboard, replay, analysis) starts here.
export { parseRecord, isValidMoveRecord, readFieldsError, completeLines, type ParsedRecord, type ParseOptions } from './record.ts';
export * from './rules.ts';
export type { LoggedEvent, LoggedClientEvent, LoggedServerEvent } from '../schema/event.ts';
