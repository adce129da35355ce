// The one sealer of data at rest (AES-256-GCM with a per-installation key). It seals:
// - the clear access key of a job (some families show a result URL carrying it, `/api/v1/studio/image?key=…`, while
//   the engine checks only the key's hash),
// - every job result (OCR fields of an e-KYC pipeline hold a name, a resident registration number, an address),
// - callback bodies and callback_meta in the outbox (src/providers/callbacks.ts).
// The key lives outside the LMDB file, in `seal.key` (mode 0600) next to it, so that a copy of data.mdb (a backup,
// a disk image, freed pages of deleted records) holds nothing readable. docs/privacy.md.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pack, unpack } from 'msgpackr';
import type { Store } from '../store/env.js';

const KEY_FILE = 'seal.key';
/** sealed values start with this (a version tag: a later key rotation can tell old values apart) */
const PREFIX = 's1.';

/** The installation key: seal.key in the data directory; created on first start (or moved there from LMDB). */
function installationKey(store: Store): Buffer {
  const file = path.join(store.path, KEY_FILE);
  const legacy = store.db<Buffer, string>('job-secrets', { encoding: 'binary' });
  if (!fs.existsSync(file)) {
    const old = legacy.get('seal-key');
    const key = old && old.length === 32 ? Buffer.from(old) : crypto.randomBytes(32);
    try {
      fs.writeFileSync(file, key.toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key (the installation key that seals data at rest)`);
  if (legacy.get('seal-key')) legacy.removeSync('seal-key'); // the key is no longer kept inside the data file
  return key;
}

export class Sealer {
  private readonly key: Buffer;
  /** the installation key of this data directory (embedded mode), or a given 32-byte key (shared mode) */
  constructor(source: Store | Buffer) {
    this.key = Buffer.isBuffer(source) ? source : installationKey(source);
    if (this.key.length !== 32) throw new Error('the sealing key must be 32 bytes');
  }

  sealBytes(plain: Uint8Array): Buffer {
    const iv = crypto.randomBytes(12);
    const c = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    const enc = Buffer.concat([c.update(plain), c.final()]);
    return Buffer.concat([iv, c.getAuthTag(), enc]);
  }

  unsealBytes(b: Uint8Array): Buffer | undefined {
    try {
      const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
      const d = crypto.createDecipheriv('aes-256-gcm', this.key, buf.subarray(0, 12));
      d.setAuthTag(buf.subarray(12, 28));
      return Buffer.concat([d.update(buf.subarray(28)), d.final()]);
    } catch {
      return undefined;
    }
  }

  /** A string sealed as base64url text (older values carry no prefix and still open). */
  seal(plain: string): string {
    return PREFIX + this.sealBytes(Buffer.from(plain, 'utf8')).toString('base64url');
  }

  unseal(sealed: unknown): string | undefined {
    if (typeof sealed !== 'string') return undefined;
    const text = sealed.startsWith(PREFIX) ? sealed.slice(PREFIX.length) : sealed;
    return this.unsealBytes(Buffer.from(text, 'base64url'))?.toString('utf8');
  }

  /** Any structured value (msgpack, so Buffers and Dates survive) sealed as bytes. */
  sealValue(value: unknown): Buffer {
    return this.sealBytes(pack(value));
  }

  unsealValue<T = unknown>(sealed: unknown): T | undefined {
    if (!(sealed instanceof Uint8Array)) return undefined;
    const plain = this.unsealBytes(sealed);
    return plain ? (unpack(plain) as T) : undefined;
  }
}

/** The former name (access keys were the first thing sealed). */
export { Sealer as KeySealer };

/** A 32-byte key from a file holding it in base64 (SEJONG_SEAL_KEY_FILE). */
export function keyFromFile(file: string): Buffer {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new Error(`SEJONG_SEAL_KEY_FILE ${file} cannot be read: ${(e as Error).message}`);
  }
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== 32) throw new Error(`SEJONG_SEAL_KEY_FILE ${file} does not hold a 32-byte base64 key (e.g. \`openssl rand -base64 32\`)`);
  return key;
}
