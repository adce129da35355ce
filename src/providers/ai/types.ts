// What every AI adapter offers. An adapter speaks one wire protocol; the catalog says which models use which.
import type { ImageSize, ModelEntry } from '../../catalog/catalog.js';
import type { HttpOptions } from './http.js';

export interface InlineImage {
  data: Buffer | Uint8Array;
  /** image/png, image/jpeg, image/webp */
  mime: string;
}

export interface Usage {
  input_tokens: number;
  output_tokens: number;
}

export interface TextRequest {
  prompt: string;
  system?: string;
  maxTokens: number;
  temperature: number;
  /** ask for a JSON answer (the caller still parses and checks it) */
  json?: boolean;
  image?: InlineImage;
}

export interface TextResult {
  text: string;
  usage: Usage;
}

export interface ImageRequest {
  prompt: string;
  aspectRatio?: string;
  imageSize?: ImageSize;
  systemInstruction?: string;
  temperature?: number;
  /** source picture for image-to-image */
  image?: InlineImage;
}

export interface ImageResult {
  data: Buffer;
  mime: string;
  usage?: Usage;
}

export interface ProviderTarget {
  baseUrl: string;
  key: string;
  http: HttpOptions;
}

export interface Adapter {
  text(model: ModelEntry, req: TextRequest, t: ProviderTarget): Promise<TextResult>;
  image(model: ModelEntry, req: ImageRequest, t: ProviderTarget): Promise<ImageResult>;
}

export const b64 = (d: Buffer | Uint8Array): string => (Buffer.isBuffer(d) ? d : Buffer.from(d.buffer, d.byteOffset, d.byteLength)).toString('base64');

/** Decode base64 that must be an image; throws a message the adapter wraps. */
export function decodeB64(s: unknown): Buffer | undefined {
  if (typeof s !== 'string' || s.length === 0 || !/^[A-Za-z0-9+/_-]+=*$/.test(s.slice(0, 1000))) return undefined;
  const buf = Buffer.from(s, 'base64');
  return buf.length > 0 ? buf : undefined;
}

export const isNonNegInt = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x) && x >= 0;
