// How a task (running in a worker thread) tells the API layer that the input was bad.
// Piscina re-throws worker errors on the main thread through structured cloning, which keeps only `message`
// (and stack): custom properties such as `code` and `field` are lost. So a TaskError carries them twice: as
// properties (for tests that call a task directly) and encoded at the start of the message as
// `[sejong:<CODE>:<field>] <text>`; WorkerPool.run() decodes that prefix back into an ApiError.

export const TASK_ERROR_CODES = ['INVALID_REQUEST', 'UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE'] as const;
export type TaskErrorCode = (typeof TASK_ERROR_CODES)[number];

const PREFIX = /^\[sejong:([A-Z_]+)(?::([^\]\s]*))?\] ([\s\S]*)$/;

export class TaskError extends Error {
  readonly code: TaskErrorCode;
  readonly field?: string;
  /** the message without the encoded prefix */
  readonly text: string;
  constructor(code: TaskErrorCode, text: string, field?: string) {
    super(`[sejong:${code}${field ? `:${field}` : ''}] ${text}`);
    this.name = 'TaskError';
    this.code = code;
    this.field = field;
    this.text = text;
  }
}

/** Bad input: an INVALID_REQUEST naming the field. */
export const badInput = (field: string | undefined, text: string): TaskError => new TaskError('INVALID_REQUEST', text, field);

/** Decode a task error thrown in a worker (after structured cloning) or directly; undefined for anything else. */
export function parseTaskError(e: unknown): { code: TaskErrorCode; field?: string; message: string } | undefined {
  if (!e || typeof e !== 'object') return undefined;
  const msg = (e as { message?: unknown }).message;
  if (typeof msg !== 'string') return undefined;
  const m = PREFIX.exec(msg);
  if (!m) return undefined;
  const code = m[1] as TaskErrorCode;
  if (!(TASK_ERROR_CODES as readonly string[]).includes(code)) return undefined;
  return { code, field: m[2] || undefined, message: m[3]! };
}
