// How a task (running in a worker thread) tells the API layer that the input was bad.
// Throw a TaskError: an Error with a string `code` (an error code of src/domain/errors.ts) and `field`.
// src/pool/worker.ts catches any error with a string `code` and re-throws it across the thread boundary with
// code/message/field encoded behind TASK_ERROR_MARK (structured cloning drops custom properties);
// WorkerPool.run() decodes it into an ApiError. Tests that call a task directly see the TaskError itself.

export const TASK_ERROR_CODES = ['INVALID_REQUEST', 'UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE'] as const;
export type TaskErrorCode = (typeof TASK_ERROR_CODES)[number];

export class TaskError extends Error {
  readonly code: TaskErrorCode;
  readonly field?: string;
  constructor(code: TaskErrorCode, message: string, field?: string) {
    super(message);
    this.name = 'TaskError';
    this.code = code;
    this.field = field;
  }
}

/** Bad input: an INVALID_REQUEST naming the field. */
export const badInput = (field: string | undefined, message: string): TaskError => new TaskError('INVALID_REQUEST', message, field);
