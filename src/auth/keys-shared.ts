// Shared mode: API keys in PostgreSQL, with every node holding the whole (small) key table in memory so that the
// per-request lookup stays synchronous and free of round trips. A change is written to PostgreSQL, then announced
// on a Redis channel: every node reloads at once, so a key revoked on node A is refused by node B on its next
// request. A reload every few seconds covers announcements missed while Redis was away.
import type { Redis } from 'ioredis';
import type { Pg } from '../shared/pg.js';
import { sha256 } from '../jobs/ids.js';
import { activeMatch, newKeyRecord, publicKey, type ApiKeyRecord, type Keys, type NewKey, type PublicKey } from './keys.js';

const CHANNEL = 'sejong:keys';
const BOOTSTRAP_LOCK = 0x5e_10_97; // pg_advisory_lock key of the admin bootstrap (migrations use 0x5e1096)

export class SharedKeyStore implements Keys {
  private byId = new Map<string, ApiKeyRecord>();
  private byHash = new Map<string, ApiKeyRecord>();
  private sub?: Redis;
  private timer?: NodeJS.Timeout;

  private constructor(private readonly pg: Pg, private readonly redis?: Redis) {}

  /** Load the table and follow changes (redis: the request-path client; a duplicate subscribes). */
  static async open(pg: Pg, redis?: Redis, reloadMs = 5000): Promise<SharedKeyStore> {
    const ks = new SharedKeyStore(pg, redis);
    await ks.reload();
    if (redis) {
      ks.sub = redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null });
      ks.sub.on('error', () => undefined);
      ks.sub.on('message', () => void ks.reload().catch(() => undefined));
      await ks.sub.subscribe(CHANNEL);
      // after a reconnect the subscription is restored by ioredis; reload in case announcements were missed
      ks.sub.on('ready', () => void ks.reload().catch(() => undefined));
    }
    ks.timer = setInterval(() => void ks.reload().catch(() => undefined), reloadMs);
    ks.timer.unref();
    return ks;
  }

  async reload(): Promise<void> {
    const rows = (await this.pg.query<{ rec: ApiKeyRecord }>('select rec from api_keys')).rows;
    const byId = new Map<string, ApiKeyRecord>();
    const byHash = new Map<string, ApiKeyRecord>();
    for (const { rec } of rows) {
      byId.set(rec.id, rec);
      byHash.set(rec.hash, rec);
    }
    this.byId = byId;
    this.byHash = byHash;
  }

  private async changed(): Promise<void> {
    await this.reload();
    // other nodes learn of it now; if Redis is away they reload within the interval
    await this.redis?.publish(CHANNEL, String(Date.now())).catch(() => undefined);
  }

  async create(opts: NewKey): Promise<{ record: PublicKey; key: string }> {
    const { rec, key } = newKeyRecord(opts);
    // a given key (the bootstrap admin key) may be created by several nodes at once: the first one wins
    await this.pg.query('insert into api_keys (id, hash, rec) values ($1, $2, $3) on conflict (hash) do nothing', [rec.id, rec.hash, rec]);
    await this.changed();
    const stored = this.byHash.get(rec.hash) ?? rec;
    return { record: publicKey(stored), key };
  }

  /** SHA-256 of keys presented recently (bounded): a key polled thousands of times a second is hashed once */
  private readonly hashes = new Map<string, string>();

  lookup(key: string): ApiKeyRecord | undefined {
    if (!key || key.length > 256) return undefined;
    let hash = this.hashes.get(key);
    if (hash === undefined) {
      if (this.hashes.size > 10_000) this.hashes.clear();
      this.hashes.set(key, (hash = sha256(key)));
    }
    // the record itself is looked up every time: a revocation seen by this node applies to the next request
    return activeMatch(this.byHash.get(hash), hash);
  }

  /** unknown hashes asked recently (bounded): random keys cost one PostgreSQL query per hash a second at most */
  private readonly misses = new Map<string, number>();

  async lookupMiss(key: string): Promise<ApiKeyRecord | undefined> {
    if (!key || key.length > 256) return undefined;
    const hash = sha256(key);
    const now = Date.now();
    if ((this.misses.get(hash) ?? 0) > now) return undefined;
    const rec = (await this.pg.query<{ rec: ApiKeyRecord }>('select rec from api_keys where hash = $1', [hash])).rows[0]?.rec;
    if (!rec) {
      if (this.misses.size > 10_000) this.misses.clear();
      this.misses.set(hash, now + 1000);
      return undefined;
    }
    this.byId.set(rec.id, rec);
    this.byHash.set(rec.hash, rec);
    return activeMatch(rec, hash);
  }

  get(id: string): ApiKeyRecord | undefined {
    return this.byId.get(id);
  }

  list(): PublicKey[] {
    return [...this.byId.values()].map(publicKey).sort((a, b) => a.createdAt - b.createdAt);
  }

  hasAdmin(): boolean {
    for (const r of this.byId.values()) if (r.admin && !r.revokedAt) return true;
    return false;
  }

  /**
   * fn under a PostgreSQL advisory lock (held on one connection for fn's length), after a reload: nodes starting
   * together on a fresh database each check hasAdmin() in turn, so exactly one generates the admin key.
   */
  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const c = await this.pg.pool.connect();
    try {
      await c.query('select pg_advisory_lock($1)', [BOOTSTRAP_LOCK]);
      await this.reload();
      return await fn();
    } finally {
      await c.query('select pg_advisory_unlock($1)', [BOOTSTRAP_LOCK]).catch(() => undefined);
      c.release();
    }
  }

  /** Change one record under its row lock (two nodes updating one key never lose a change). */
  private async change(id: string, fn: (r: ApiKeyRecord) => ApiKeyRecord | undefined): Promise<ApiKeyRecord | undefined> {
    const out = await this.pg.tx(async (c) => {
      const cur = (await c.query<{ rec: ApiKeyRecord }>('select rec from api_keys where id = $1 for update', [id])).rows[0]?.rec;
      const next = cur && fn(cur);
      if (next) await c.query('update api_keys set rec = $2, updated_at = now() where id = $1', [id, next]);
      return next;
    });
    if (out) await this.changed();
    return out;
  }

  async update(id: string, patch: Partial<Pick<ApiKeyRecord, 'name' | 'rateLimitPerMinute' | 'rateLimitPerDay'>>): Promise<PublicKey | undefined> {
    const r = await this.change(id, (rec) => (rec.revokedAt ? undefined : { ...rec, ...patch }));
    return r && publicKey(r);
  }

  async revoke(id: string, now: number): Promise<PublicKey | undefined> {
    const r = await this.change(id, (rec) => ({ ...rec, revokedAt: rec.revokedAt ?? now }));
    return r && publicKey(r);
  }

  public(rec: ApiKeyRecord): PublicKey {
    return publicKey(rec);
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.sub?.disconnect();
  }
}
