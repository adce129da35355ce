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

const CACHE_MS = 2000;

export type PublicKey = Omit<ApiKeyRecord, 'hash'>;

export interface NewKey {
  name: string;
  admin?: boolean;
  rateLimitPerMinute?: number;
  rateLimitPerDay?: number;
  /** a given clear key (the bootstrap admin key); default a new random one */
  key?: string;
  now: number;
}

/** API keys as the front end and the admin routes see them (lookups synchronous: on the request path). */
export interface Keys {
  create(opts: NewKey): Promise<{ record: PublicKey; key: string }>;
  lookup(key: string): ApiKeyRecord | undefined;
  get(id: string): ApiKeyRecord | undefined;
  list(): PublicKey[];
  hasAdmin(): boolean;
  update(id: string, patch: Partial<Pick<ApiKeyRecord, 'name' | 'rateLimitPerMinute' | 'rateLimitPerDay'>>): Promise<PublicKey | undefined>;
  revoke(id: string, now: number): Promise<PublicKey | undefined>;
  public(rec: ApiKeyRecord): PublicKey;
  /** shared mode: a key this node's copy does not know, looked up in the shared store (new keys of other nodes) */
  lookupMiss?(key: string): Promise<ApiKeyRecord | undefined>;
  /** shared mode: fn runs alone fleet-wide, with this node's copy fresh (the admin bootstrap of nodes starting together) */
  exclusive?<T>(fn: () => Promise<T>): Promise<T>;
  /** stop following changes (shared mode) */
  close?(): void;
}

/** A new key record (and its clear key) from the create options. */
export function newKeyRecord(opts: NewKey): { rec: ApiKeyRecord; key: string } {
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
  return { rec, key };
}

export function publicKey(rec: ApiKeyRecord): PublicKey {
  const { hash: _hash, ...rest } = rec;
  return rest;
}

/** The record a clear key names, when it is that key's and not revoked (constant-time hash compare). */
export function activeMatch(rec: ApiKeyRecord | undefined, hash: string): ApiKeyRecord | undefined {
  return rec && !rec.revokedAt && rec.hash.length === hash.length && crypto.timingSafeEqual(Buffer.from(rec.hash), Buffer.from(hash)) ? rec : undefined;
}

/** Embedded mode: keys in LMDB. */
export class KeyStore implements Keys {
  private readonly keys: Database<ApiKeyRecord, string>;
  private readonly byHash: Database<string, string>;
  /** clear key → answer, for CACHE_MS */
  private readonly cache = new Map<string, { rec: ApiKeyRecord | null; until: number }>();
  constructor(store: Store) {
    this.keys = store.db<ApiKeyRecord, string>('api-keys');
    this.byHash = store.db<string, string>('api-key-hashes');
  }

  async create(opts: NewKey): Promise<{ record: PublicKey; key: string }> {
    const { rec, key } = newKeyRecord(opts);
    await this.keys.transaction(() => {
      this.keys.put(rec.id, rec);
      this.byHash.put(rec.hash, rec.id);
    });
    this.cache.clear();
    return { record: this.public(rec), key };
  }

  /**
   * The active key record for a clear-text key, or undefined. Looked up by its SHA-256 (exact match in LMDB);
   * answers are cached for CACHE_MS so that a revocation by another process (the CLI) takes effect within that
   * time; revocations through this process clear the cache at once.
   */
  lookup(key: string): ApiKeyRecord | undefined {
    if (!key || key.length > 256) return undefined;
    const now = Date.now();
    const hit = this.cache.get(key);
    if (hit && hit.until > now) return hit.rec ?? undefined;
    const hash = sha256(key);
    const id = this.byHash.get(hash);
    const rec = id ? this.keys.get(id) : undefined;
    const ok = activeMatch(rec, hash);
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(key, { rec: ok ?? null, until: now + CACHE_MS });
    return ok;
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
    this.cache.clear();
    return this.public(next);
  }

  async revoke(id: string, now: number): Promise<PublicKey | undefined> {
    const rec = this.keys.get(id);
    if (!rec) return undefined;
    const next = { ...rec, revokedAt: rec.revokedAt ?? now };
    await this.keys.put(id, next);
    this.cache.clear();
    return this.public(next);
  }

  public(rec: ApiKeyRecord): PublicKey {
    return publicKey(rec);
  }
}
