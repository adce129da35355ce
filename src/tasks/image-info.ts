// Cheap header check of an upload (format, oriented size) with the same rules as every task: lets an API
// handler reject a bad image with 4xx before it creates a job.
import { checkImage, type DecodeOptions } from './lib/image-io.js';

export interface ImageInfoInput extends DecodeOptions {
  image: Uint8Array;
}

export default async function imageInfo(input: ImageInfoInput): Promise<{ format: string; width: number; height: number; bytes: number }> {
  const c = await checkImage(input.image, input);
  return { format: c.format, width: c.width, height: c.height, bytes: c.buf.length };
}
