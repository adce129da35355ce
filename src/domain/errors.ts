// One error type for every failure a client can see, and the code table of the spec plus ours.

export const ERROR_CODES = {
  INVALID_API_KEY: { status: 401, meaning: 'Key missing or invalid', spec: true },
  INVALID_REQUEST: { status: 400, meaning: 'Missing or invalid parameter', spec: true },
  JOB_NOT_FOUND: { status: 404, meaning: 'Job id unknown, or read through another family\'s endpoint', spec: true },
  IMAGE_EXPIRED: { status: 410, meaning: 'Result time-to-live has passed', spec: true },
  AI_API_ERROR: { status: 502, meaning: 'Upstream provider (AI or payment) failed or is not configured', spec: true },
  INTERNAL_ERROR: { status: 500, meaning: 'Internal failure', spec: true },
  FORBIDDEN: { status: 403, meaning: 'Key valid but not allowed here (admin endpoints)', spec: false },
  NOT_FOUND: { status: 404, meaning: 'Unknown route or resource', spec: false },
  METHOD_NOT_ALLOWED: { status: 405, meaning: 'Route exists but not for this method', spec: false },
  PAYLOAD_TOO_LARGE: { status: 413, meaning: 'Body or part larger than the route allows', spec: false },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, meaning: 'Content type or image format not accepted', spec: false },
  CONFLICT: { status: 409, meaning: 'Request conflicts with stored state (e.g. idempotency key reused with other input)', spec: false },
  RATE_LIMITED: { status: 429, meaning: 'Per-key rate limit exceeded; see Retry-After', spec: false },
  JOB_FAILED: { status: 422, meaning: 'The job failed; its result cannot be fetched (status carries the reason)', spec: false },
  SERVICE_BUSY: { status: 503, meaning: 'Worker queue full; see Retry-After', spec: false },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly field?: string;
  readonly details?: Record<string, unknown>;
  readonly headers?: Record<string, string>;
  constructor(code: ErrorCode, message: string, opts: { status?: number; field?: string; details?: Record<string, unknown>; headers?: Record<string, string> } = {}) {
    super(message);
    this.code = code;
    this.status = opts.status ?? ERROR_CODES[code].status;
    this.field = opts.field;
    this.details = opts.details;
    this.headers = opts.headers;
  }
  toBody(): Record<string, unknown> {
    const error: Record<string, unknown> = { code: this.code, message: this.message };
    if (this.field) error.field = this.field;
    if (this.details) error.details = this.details;
    return { success: false, error };
  }
}

const show = (v: unknown): string => {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (typeof v === 'string') return `string "${v.length > 40 ? v.slice(0, 40) + '…' : v}"`;
  if (typeof v === 'number' || typeof v === 'boolean') return `${typeof v} ${v}`;
  if (Array.isArray(v)) return `array of ${v.length}`;
  return typeof v;
};

/** "Expected <what> for <field> but received <value>" (the sharp lib/is.js convention). */
export function invalid(field: string, expected: string, received?: unknown, extra = ''): ApiError {
  const got = arguments.length >= 3 ? ` but received ${show(received)}` : '';
  return new ApiError('INVALID_REQUEST', `Expected ${expected} for ${field}${got}${extra ? `; ${extra}` : ''}`, { field });
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;
