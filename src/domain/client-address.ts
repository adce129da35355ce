// The client's address as every per-address limit sees it (MCP sessions and rate, the job-access-key address
// budget, the console sign-in throttle). Behind a balancer the peer is the balancer: when the peer is one of
// SEJONG_TRUSTED_PROXIES, the client is the right-most address in X-Forwarded-For that is not itself a trusted
// proxy (each trusted hop appends the address it saw; anything left of that the client may have written itself).
// With no trusted proxies (the default) X-Forwarded-For is ignored: a client cannot spoof its address.
import net from 'node:net';

const MAPPED = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/** a textual address without IPv4-mapped IPv6 and brackets; undefined when it is not an address */
export function plainAddress(raw: string): string | undefined {
  let a = raw.trim();
  if (a.startsWith('[') && a.endsWith(']')) a = a.slice(1, -1);
  a = a.replace(MAPPED, '$1');
  return net.isIP(a) ? a : undefined;
}

/** parse `a.b.c.d`, `a.b.c.d/len`, `v6`, `v6/len` entries; the first bad one throws naming it */
export function trustedProxies(entries: string[]): net.BlockList | undefined {
  if (!entries.length) return undefined;
  const list = new net.BlockList();
  for (const e of entries) {
    const [addr = '', len] = e.split('/');
    const a = plainAddress(addr);
    const family = a && net.isIP(a) === 6 ? 'ipv6' : 'ipv4';
    const max = family === 'ipv6' ? 128 : 32;
    if (!a || (len !== undefined && (!/^\d+$/.test(len) || Number(len) > max))) throw new Error(`expected an IP address or CIDR, got "${e}"`);
    if (len === undefined) list.addAddress(a, family);
    else list.addSubnet(a, Number(len), family);
  }
  return list;
}

function trusted(list: net.BlockList, addr: string): boolean {
  return list.check(addr, net.isIP(addr) === 6 ? 'ipv6' : 'ipv4');
}

/** the client address of a request from `peer` carrying `forwardedFor` (the X-Forwarded-For header, if any) */
export function clientAddress(peer: string, forwardedFor: string | undefined, proxies: net.BlockList | undefined): string {
  const p = plainAddress(peer) ?? peer;
  if (!proxies || !forwardedFor || !trusted(proxies, p)) return p;
  const hops = forwardedFor.split(',');
  for (let i = hops.length - 1; i >= 0; i--) {
    const a = plainAddress(hops[i]!);
    if (!a) return p; // a malformed hop: nothing left of it can be trusted, and neither can it
    if (!trusted(proxies, a)) return a;
  }
  return p; // every hop is a trusted proxy: the request came from inside
}
