// The one set of storage values, the spec's <URL_STORE_A>, <URL_STORE_B> and <INLINE_STORE> (docs/image.md#storage):
// `url_a` and `url_b` answer a URL of the result served by sejong from LMDB until its TTL (both the same here),
// `inline` answers the bytes in the response (base64). `base64` is accepted for `inline` because the spec writes the
// inline store that way on text-to-image ("base64 default"). Nothing else (no `url`).
import { z } from 'zod';

export const URL_STORES = ['url_a', 'url_b'] as const;
export const STORAGE_TYPES = [...URL_STORES, 'inline'] as const;
export type StorageType = (typeof STORAGE_TYPES)[number];

/** A storage value where both URL stores and the inline store are possible; `base64` becomes `inline`. */
export const storageType = z
  .enum([...STORAGE_TYPES, 'base64'])
  .transform((v): StorageType => (v === 'base64' ? 'inline' : v));

/** A storage value where only a URL makes sense (print). */
export const urlStorageType = z.enum(URL_STORES);
