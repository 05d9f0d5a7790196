// The participant's page in English, its first screens (loading, errors, links, kiosk, closed, the top bar): what
// the first load carries. The words of the steps after consent come with them (en.steps.ts). Texts exactly as the
// page showed them before it had a catalogue.
export const enPage = {
  // The page around the steps (App.tsx)
  'app.loading': 'Loading the study…',
  'app.loadingPuzzle': 'Loading the puzzle…',
  'app.error': 'Something went wrong: {error}',
  'app.errorSaved': 'Your answers so far are saved. ',
  'app.errorRetry': 'Reload the page to try again, or contact the experimenter.',
  'app.closedTitle': 'This study is not taking participants',
  'app.thankYou': 'Thank you',
  'app.yourCode': 'Your code: ',
  'app.declined': 'Thank you for your time.',
  'app.noConnection': 'no connection',
  'app.sessionGone': 'this session has ended on the server (withdrawn or expired); please contact the experimenter',
  // Kiosk (the experimenter types the participant's label)
  // The top bar
  'save.saved': 'Saved',
  'save.saving': 'Saving…',
  'save.offline': 'Offline — your work is kept and will be sent',
  'save.offlineShort': 'Offline · kept',
  'countdown.label': 'Time left {time}',
  // Broken links (the field, the value, what is allowed)
} as const;
