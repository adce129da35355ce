// Schema validation at the edge: zod issues become one INVALID_REQUEST naming the field, what was expected and what came.
import { z, type ZodType } from 'zod';
import { ApiError } from '../domain/errors.js';

const show = (v: unknown): string => {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (typeof v === 'string') return `string "${v.length > 40 ? v.slice(0, 40) + '…' : v}"`;
  if (typeof v === 'number' || typeof v === 'boolean') return `${typeof v} ${v}`;
  if (Array.isArray(v)) return 'an array';
  return typeof v;
};

export function parseWith<T>(schema: ZodType<T>, data: unknown, where: 'body' | 'query' | 'form' | 'params'): T {
  const r = schema.safeParse(data, { reportInput: true });
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const field = issue.path.map(String).join('.') || where;
  const input = (issue as { input?: unknown }).input;
  let message: string;
  switch (issue.code) {
    case 'invalid_type':
      message = input === undefined ? `${field} is required (expected ${issue.expected})` : `Expected ${issue.expected} for ${field} but received ${show(input)}`;
      break;
    case 'unrecognized_keys': {
      const keys = (issue as { keys: string[] }).keys;
      const f = [...issue.path.map(String), keys[0]].join('.');
      return (() => { throw new ApiError('INVALID_REQUEST', `Unknown field ${keys.map((k) => [...issue.path.map(String), k].join('.')).join(', ')}`, { field: f }); })();
    }
    case 'too_small':
    case 'too_big': {
      const i = issue as { minimum?: number | bigint; maximum?: number | bigint; origin?: string; inclusive?: boolean };
      const bound = issue.code === 'too_small' ? `at least ${i.minimum}` : `at most ${i.maximum}`;
      const what = i.origin === 'string' ? `a string of ${bound} characters` : i.origin === 'array' ? `an array of ${bound} items` : `a number ${bound}`;
      message = `Expected ${what} for ${field} but received ${show(input)}`;
      break;
    }
    case 'invalid_value': {
      const vals = (issue as { values: unknown[] }).values;
      message = `Expected one of ${vals.map((v) => JSON.stringify(v)).join(', ')} for ${field} but received ${show(input)}`;
      break;
    }
    case 'invalid_format':
      message = `Expected a valid ${(issue as { format: string }).format} for ${field} but received ${show(input)}`;
      break;
    default:
      message = `${field}: ${issue.message}`;
  }
  throw new ApiError('INVALID_REQUEST', message, { field });
}

/** Form/query helpers: multipart fields and query values arrive as strings. */
export const form = {
  number: (min: number, max: number) =>
    z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v), z.number().min(min).max(max)),
  int: (min: number, max: number) =>
    z.preprocess((v) => (typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v), z.number().int().min(min).max(max)),
  bool: () =>
    z.preprocess((v) => (v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : v), z.boolean()),
  /** a JSON document sent as text (e.g. privacy_regions) */
  json: <T extends ZodType>(schema: T) =>
    z.preprocess((v, ctx) => {
      if (typeof v !== 'string') return v;
      try {
        return JSON.parse(v);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'is not valid JSON' });
        return z.NEVER;
      }
    }, schema),
};
