// Every key of the participant's catalogue: what a study may override (config `languages.messages`) and what each
// language must have. Kept apart from the texts so the config check (and the dashboard's config schema) carries no
// catalogue; catalogue.test.ts checks it is exactly the English catalogue's keys.
export const MESSAGE_KEYS = [
  'app.loading', 'app.loadingPuzzle', 'app.error', 'app.errorSaved', 'app.errorRetry', 'app.badLinkTitle', 'app.closedTitle', 'app.elsewhereTitle', 'app.elsewhere', 'app.continueHere', 'app.thankYou', 'app.yourCode', 'app.oneMoment', 'app.preparing', 'app.declined', 'app.noSteps', 'app.studyFull', 'app.noConnection', 'app.sessionGone',
  'kiosk.title', 'kiosk.label', 'kiosk.start',
  'save.saved', 'save.saving', 'save.offline', 'save.offlineShort',
  'countdown.label',
  'link.label', 'link.panel', 'link.other', 'link.problem', 'link.paramLabel', 'link.paramProlific', 'link.paramSona', 'link.paramParticipant', 'link.paramStudy', 'link.paramSession',
  'dialog.cancel', 'dialog.leave', 'dialog.leaveYes', 'dialog.leaveNo', 'dialog.reset', 'dialog.resetYes', 'dialog.skip', 'dialog.skipYes', 'dialog.endWarmup', 'dialog.endWarmupYes',
  'board.toolGroup', 'board.fill', 'board.cross', 'board.reset', 'board.zoomIn', 'board.zoomOut', 'board.undo', 'board.hint', 'board.thinking', 'board.submit', 'board.checking', 'board.endWarmup', 'board.skip', 'board.keys', 'board.keysMove', 'board.keysFill', 'board.keysCross', 'board.keysClear', 'board.keysUndo', 'board.keysArrows', 'board.keysSelect', 'board.keysLetters', 'board.keysWrite', 'board.keysNotes', 'board.keysErase', 'board.gridLabel', 'board.cellLabel', 'board.rowLabel', 'board.practice',
  'sudoku.gridLabel', 'sudoku.cellDigit', 'sudoku.cellGiven', 'sudoku.cellNotes', 'sudoku.cellEmpty', 'sudoku.pad', 'sudoku.modeGroup', 'sudoku.digits', 'sudoku.notes', 'sudoku.erase',
  'hint.close', 'hint.closeLabel', 'hint.fillForMe', 'hint.crossForMe', 'hint.writeForMe', 'hint.revealOnly', 'hint.none', 'hint.failed',
  'check.tutorialSolved', 'check.tutorialNotSolved', 'check.notSolved', 'check.failed',
  'refusal.timeOver', 'refusal.notCurrentStep', 'refusal.sessionEnded', 'refusal.hintsOff', 'refusal.storeUnavailable', 'refusal.status',
  'tutorial.heading', 'tutorial.done', 'tutorial.todo', 'tutorial.continueLeft', 'tutorial.continue',
  'task.pointer.digit', 'task.pointer.notes', 'task.pointer.erase', 'task.pointer.fill', 'task.pointer.cross', 'task.pointer.drag', 'task.pointer.undo', 'task.pointer.reset', 'task.pointer.hint', 'task.pointer.submit', 'task.touch.digit', 'task.touch.notes', 'task.touch.erase', 'task.touch.fill', 'task.touch.cross', 'task.touch.drag', 'task.touch.undo', 'task.touch.reset', 'task.touch.hint', 'task.touch.submit', 'task.keyboard.digit', 'task.keyboard.notes', 'task.keyboard.erase', 'task.keyboard.fill', 'task.keyboard.cross', 'task.keyboard.drag', 'task.keyboard.undo', 'task.keyboard.reset', 'task.keyboard.hint', 'task.keyboard.submit',
  'puzzle.skipAfter', 'puzzle.skipAfterMin', 'puzzle.skipIn', 'puzzle.skipInMin', 'puzzle.title',
  'rating.title', 'rating.skipped', 'rating.timeout', 'rating.solved', 'rating.na',
  'post.asLeft', 'post.puzzle', 'post.solved', 'post.skipped', 'post.timeout', 'post.difficulty',
  'survey.continue', 'survey.optional', 'survey.needAnswers', 'survey.required', 'survey.scaleRange', 'survey.number', 'survey.wholeNumber', 'survey.atLeast', 'survey.atMost', 'survey.oneOption', 'survey.options', 'survey.text', 'survey.tooLong',
  'complete.codeHeading', 'complete.copy', 'complete.copied', 'complete.copiedNote', 'complete.copyFailed', 'complete.redirecting', 'complete.waitingOffline', 'complete.saving',
] as const;
export type MessageKey = (typeof MESSAGE_KEYS)[number];
export type Messages = Record<MessageKey, string>;

const KEYS: ReadonlySet<string> = new Set(MESSAGE_KEYS);
export const isMessageKey = (key: string): key is MessageKey => KEYS.has(key);
