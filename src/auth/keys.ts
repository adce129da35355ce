// API keys: stored as sha256 hashes in LMDB, looked up by hash, cached in memory (revocation clears the cache).
import crypto from 'node:crypto';
import type { Database } from 'lmdb';
import type { Store } from '../store/env.js';
import { sha256 } from '../jobs/ids.js';

export interface ApiKeyRecord {
  id: string;
  name: string;
  hash: string;
  admin: boolean;
  rateLimitPerMinute?: number;
  rateLimitPerDay?: number;
  createdAt: number;
  revokedAt?: number;
}

export type PublicKey = Omit<ApiKeyRecord, 'hash'>;

export class KeyStore {
  private readonly keys: Database<ApiKeyRecord, string>;
  private readonly byHash: Database<string, string>;
  private readonly cache = new Map<string, ApiKeyRecord | null>();
  constructor(store: Store) {
    this.keys = store.db<ApiKeyRecord, string>('api-keys');
    this.byHash = store.db<string, string>('api-key-hashes');
  }

  async create(opts: { name: string; admin?: boolean; rateLimitPerMinute?: number; rateLimitPerDay?: number; key?: string; now: number }): Promise<{ record: PublicKey; key: string }> {
    const key = opts.key ?? `sk_${crypto.randomBytes(24).toString('base64url')}`;
    const rec: ApiKeyRecord = {
      id: `key_${crypto.randomBytes(8).toString('hex')}`,
      name: opts.name,
      hash: sha256(key),
      admin: opts.admin ?? false,
      rateLimitPerMinute: opts.rateLimitPerMinute,
      rateLimitPerDay: opts.rateLimitPerDay,
      createdAt: opts.now,
    };
    await this.keys.transaction(() => {
      this.keys.put(rec.id, rec);
      this.byHash.put(rec.hash, rec.id);
    });
    this.cache.delete(rec.hash);
    return { record: this.public(rec), key };
  }

  /** The active key record for a clear-text key, or undefined. Hash lookup is exact; a final constant-time check guards it. */
  lookup(key: string): ApiKeyRecord | undefined {
    if (!key || key.length > 256) return undefined;
    const hash = sha256(key);
    let rec = this.cache.get(hash);
    if (rec === undefined) {
      const id = this.byHash.get(hash);
      rec = (id && this.keys.get(id)) || null;
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(hash, rec);
    }
    if (!rec || rec.revokedAt) return undefined;
    const a = Buffer.from(rec.hash, 'hex');
    const b = Buffer.from(hash, 'hex');
    return a.length === b.length && crypto.timingSafeEqual(a, b) ? rec : undefined;
  }

  get(id: string): ApiKeyRecord | undefined {
    return this.keys.get(id);
  }

  list(): PublicKey[] {
    return [...this.keys.getRange()].map(({ value }) => this.public(value)).sort((a, b) => a.createdAt - b.createdAt);
  }

  hasAdmin(): boolean {
    for (const { value } of this.keys.getRange()) if (value.admin && !value.revokedAt) return true;
    return false;
  }

  async update(id: string, patch: Partial<Pick<ApiKeyRecord, 'name' | 'rateLimitPerMinute' | 'rateLimitPerDay'>>): Promise<PublicKey | undefined> {
    const rec = this.keys.get(id);
    if (!rec || rec.revokedAt) return undefined;
    const next = { ...rec, ...patch };
    await this.keys.put(id, next);
    this.cache.delete(rec.hash);
    return this.public(next);
  }

  async revoke(id: string, now: number): Promise<PublicKey | undefined> {
    const rec = this.keys.get(id);
    if (!rec) return undefined;
    const next = { ...rec, revokedAt: rec.revokedAt ?? now };
    await this.keys.put(id, next);
    this.cache.delete(rec.hash);
    return this.public(next);
  }

  public(rec: ApiKeyRecord): PublicKey {
    const { hash: _hash, ...rest } = rec;
    return rest;
  }
}
