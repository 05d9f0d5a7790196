// An HTTP error the routes answer with: a status, a message for the JSON body, and optional issues and details.
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly issues?: string[],
    /** More fields of the JSON answer (e.g. the step a refused event should have named). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }

  /** The JSON answer: `{ error, issues?, ...details }`. */
  body(): Record<string, unknown> {
    return { error: this.message, ...(this.issues ? { issues: this.issues } : {}), ...this.details };
  }
}
