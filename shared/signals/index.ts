// Signals: pure functions from logged events to tidy rows (attempts, gaps, participants, answers), shared by the analysis and the server's exports.
export * from './schema.ts';
export { parseSessionNdjson, sessionFromRecords, isValidMoveRecord, isValidStepRecord, readFieldsError, LogFormatError, type SessionLog, type ParseOptions } from './session.ts';
export { elapsedMs } from '../log/rules.ts';
export { sessionSignals, applyPauseThreshold, UnknownPuzzleError, sudokuSignalPuzzle, DEFAULT_GUESSING_OPTIONS, type SignalPuzzle, type SignalOptions, type SessionSignals, type GapLevel } from './attempts.ts';
export { participantRow, loggedStatus, answerRows, codeAnswer, expertiseItems, DEFAULT_EXPERTISE_ITEMS } from './participants.ts';
export { sessionTrajectory, TRAJECTORY_COLUMNS, type TrajectoryRow, type TrajectoryOptions, type TrajectoryAction, type TrajectoryLabel } from './trajectory.ts';
export { attemptStrategies, sessionStrategies, strategyColumns, footholdCells, STRATEGY_COLUMNS, STRATEGY_LEVELS, type StrategyRow, type StrategyKind } from './strategy.ts';
export { TRAJECTORY_CODEBOOK } from './trajectoryCodebook.ts';
