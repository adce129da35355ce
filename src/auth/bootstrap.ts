// The first admin key: from SEJONG_ADMIN_KEY, or generated on first start, stored hashed and printed once.
import type { Services } from '../services.js';

// In shared mode it runs under the key store's fleet-wide lock, so nodes starting together create exactly one.
export async function ensureAdminKey(services: Services, print: (line: string) => void = (l) => process.stdout.write(l + '\n')): Promise<string | undefined> {
  const { keys } = services;
  return keys.exclusive ? keys.exclusive(() => bootstrap(services, print)) : bootstrap(services, print);
}

async function bootstrap(services: Services, print: (line: string) => void): Promise<string | undefined> {
  const { keys, config, clock } = services;
  if (config.adminKey) {
    if (!keys.lookup(config.adminKey)) await keys.create({ name: 'admin (SEJONG_ADMIN_KEY)', admin: true, key: config.adminKey, now: clock.now() });
    return undefined;
  }
  if (keys.hasAdmin()) return undefined;
  const { key } = await keys.create({ name: 'admin (generated)', admin: true, now: clock.now() });
  print(JSON.stringify({ msg: 'admin key generated; it is shown only this once', adminKey: key }));
  return key;
}
