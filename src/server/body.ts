// Request bodies: JSON and multipart parsing, magic-byte sniffing of file parts (tasks/lib/sniff.ts), per-part size rules.
import uws from '@trufflesuite/uws-js-unofficial';
import { ApiError } from '../domain/errors.js';
import type { ZodType } from 'zod';
import type { BodySpec, UploadedFile } from './types.js';
import { sniffFormat } from '../tasks/lib/sniff.js';

/** The format of a file part by its magic bytes (the one sniffer, tasks/lib/sniff.ts). */
export const sniff = (b: Buffer): UploadedFile['format'] => sniffFormat(b);

export function parseJson(raw: Buffer, contentType: string): unknown {
  if (raw.length === 0) throw new ApiError('INVALID_REQUEST', 'A JSON body is required');
  if (contentType && !/^application\/([a-z.+-]*\+)?json\b/i.test(contentType)) {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `Expected Content-Type application/json but received ${contentType}`);
  }
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (e) {
    throw new ApiError('INVALID_REQUEST', `The body is not valid JSON: ${(e as Error).message}`);
  }
}

export function parseMultipart(raw: Buffer, contentType: string, spec: Extract<BodySpec, { kind: 'multipart' }>): { fields: Record<string, string>; files: Record<string, UploadedFile> } {
  if (!/^multipart\/form-data/i.test(contentType)) {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `Expected Content-Type multipart/form-data but received ${contentType || 'none'}`);
  }
  if (!/boundary=/i.test(contentType)) throw new ApiError('INVALID_REQUEST', 'The multipart Content-Type has no boundary');
  const ab = raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength) as ArrayBuffer;
  const parts = raw.length ? uws.getParts(ab, contentType) : [];
  if (parts === undefined) throw new ApiError('INVALID_REQUEST', 'The multipart body could not be parsed');
  const fields: Record<string, string> = {};
  const files: Record<string, UploadedFile> = {};
  const fileRules = spec.files ?? {};
  const textNames = fieldNames(spec.fields);
  for (const p of parts) {
    const data = Buffer.from(new Uint8Array(p.data));
    const shown = showName(p.name);
    if (Object.hasOwn(fileRules, p.name)) {
      if (files[p.name]) throw new ApiError('INVALID_REQUEST', `The part ${shown} was sent more than once; send it once`, { field: p.name });
      const format = sniff(data);
      // a file sent without filename is accepted when it is an image; text where a file is declared is not
      if (p.filename === undefined && format === 'unknown' && data.length > 0) {
        throw new ApiError('INVALID_REQUEST', `Expected a file for ${shown} but received a text field; send ${shown} as a file part`, { field: p.name });
      }
      files[p.name] = { name: p.name, filename: p.filename, contentType: p.type, data, format };
    } else if (textNames === undefined || textNames.includes(p.name)) {
      if (p.filename !== undefined) {
        throw new ApiError('INVALID_REQUEST', `Expected a text field for ${shown} but received a file${p.filename ? ` (${showName(p.filename)})` : ''}; send ${shown} as text`, { field: p.name });
      }
      if (Object.hasOwn(fields, p.name)) throw new ApiError('INVALID_REQUEST', `The field ${shown} was sent more than once; send it once`, { field: p.name });
      fields[p.name] = data.toString('utf8');
    } else {
      const accepted = [...Object.keys(fileRules), ...textNames];
      throw new ApiError('INVALID_REQUEST', `Unknown part ${shown}; this endpoint accepts ${accepted.length ? accepted.join(', ') : 'no parts'}`, { field: p.name });
    }
  }
  for (const [name, rule] of Object.entries(fileRules)) {
    const f = files[name];
    if (!f) {
      if (rule.required) throw new ApiError('INVALID_REQUEST', `The file part ${name} is required`, { field: name });
      continue;
    }
    if (f.data.length === 0) throw new ApiError('INVALID_REQUEST', `The file part ${name} is empty`, { field: name });
    if (rule.maxBytes && f.data.length > rule.maxBytes) {
      throw new ApiError('PAYLOAD_TOO_LARGE', `The file part ${name} is ${f.data.length} bytes; at most ${rule.maxBytes} (${(rule.maxBytes / 1048576).toFixed(0)} MB) are accepted`, { field: name });
    }
    const types = rule.types ?? ['jpeg', 'png', 'webp'];
    if (!types.includes(f.format as never)) {
      throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `Expected a ${types.map((t) => t.toUpperCase()).join('/')} image for ${name} but received ${f.format === 'unknown' ? 'data that is not an image' : f.format.toUpperCase()}`, { field: name });
    }
  }
  return { fields, files };
}

/** the text field names a multipart fields schema declares (an object schema, possibly piped); [] without a schema; undefined when not knowable */
export function fieldNames(schema: ZodType | undefined): string[] | undefined {
  if (!schema) return [];
  const def = (schema as unknown as { _zod?: { def?: { type?: string; shape?: Record<string, unknown>; in?: ZodType } } })._zod?.def;
  if (def?.type === 'object' && def.shape) return Object.keys(def.shape);
  if (def?.type === 'pipe' && def.in) return fieldNames(def.in);
  return undefined;
}

/** a client-chosen part name as shown in a message: bounded, control characters escaped */
const showName = (n: string): string => (n === '' ? '(unnamed)' : JSON.stringify(n.length > 60 ? `${n.slice(0, 60)}…` : n).slice(1, -1));
