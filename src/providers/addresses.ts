// Which addresses the safe fetcher may reach: the block list of non-public ranges, IPv6 forms that embed an IPv4
// address (judged by that address), the SEJONG_FETCH_ALLOW entries (host, host:port, IP, [IPv6]:port, CIDR,
// CIDR:port) and the service's own port on this machine (never reachable: no self-requests).
import net from 'node:net';
import os from 'node:os';
import { ConfigError } from '../config.js';

const BLOCKED = new net.BlockList();
for (const [net4, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) BLOCKED.addSubnet(net4, prefix, 'ipv4');
for (const [net6, prefix] of [
  // unspecified, loopback, IPv4-compatible (deprecated ::a.b.c.d), unique-local, link-local, multicast,
  // NAT64 (well-known and local-use), Teredo, documentation
  ['::', 128], ['::1', 128], ['::', 96], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['64:ff9b:1::', 48],
  ['2001::', 32], ['2001:db8::', 32],
] as const) BLOCKED.addSubnet(net6, prefix, 'ipv6');

/** The 16 bytes of an IPv6 address (with or without an embedded dotted quad), or undefined. */
export function ipv6Bytes(ip: string): Uint8Array | undefined {
  if (net.isIPv6(ip) === false) return undefined;
  let s = ip.toLowerCase().replace(/%.*$/, '');
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (quad) {
    const p = quad[1]!.split('.').map(Number);
    s = s.slice(0, -quad[1]!.length) + ((p[0]! << 8) | p[1]!).toString(16) + ':' + ((p[2]! << 8) | p[3]!).toString(16);
  }
  const [head, tail] = s.includes('::') ? s.split('::') : [s, undefined];
  const h = head ? head.split(':') : [];
  const tl = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array(8 - h.length - tl.length).fill('0'), ...tl];
  if (groups.length !== 8) return undefined;
  const out = new Uint8Array(16);
  groups.forEach((g, i) => {
    const v = parseInt(g, 16);
    out[i * 2] = v >> 8;
    out[i * 2 + 1] = v & 255;
  });
  return out;
}

/** The IPv4 address an IPv6 address stands for: mapped, compatible, NAT64 (well-known / local-use) or 6to4. */
export function embeddedIpv4(ip: string): string | undefined {
  const b = ipv6Bytes(ip);
  if (!b) return undefined;
  const zero = (from: number, to: number) => b.subarray(from, to).every((x) => x === 0);
  const v4 = (at: number) => `${b[at]}.${b[at + 1]}.${b[at + 2]}.${b[at + 3]}`;
  if (zero(0, 10) && b[10] === 0xff && b[11] === 0xff) return v4(12); // ::ffff:a.b.c.d
  if (zero(0, 12) && !zero(12, 16)) return v4(12); // ::a.b.c.d (deprecated IPv4-compatible)
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b) return v4(12); // 64:ff9b::/96, 64:ff9b:1::/48
  if (b[0] === 0x20 && b[1] === 0x02) return v4(2); // 6to4 2002:aabb:ccdd::/48
  return undefined;
}

const fam = (ip: string): 'ipv4' | 'ipv6' => (net.isIPv6(ip) ? 'ipv6' : 'ipv4');

/** True when the address is in a non-public range (itself or the IPv4 address it embeds). */
export function isBlockedAddress(ip: string): boolean {
  if (BLOCKED.check(ip, fam(ip))) return true;
  const v4 = embeddedIpv4(ip);
  return v4 !== undefined && BLOCKED.check(v4, 'ipv4');
}

/** Loopback or unspecified (this machine), directly or through an embedded IPv4 address. */
export function isLocalMachine(ip: string): boolean {
  const v4 = net.isIPv4(ip) ? ip : embeddedIpv4(ip);
  if (v4) return v4.startsWith('127.') || v4.startsWith('0.');
  const b = ipv6Bytes(ip);
  return !!b && b.subarray(0, 15).every((x) => x === 0) && (b[15] === 0 || b[15] === 1);
}

let interfaces: Set<string> | undefined;
/** Addresses of this machine's interfaces (read once). */
function ownAddresses(): Set<string> {
  interfaces ??= new Set(Object.values(os.networkInterfaces()).flatMap((l) => (l ?? []).map((a) => a.address.toLowerCase())));
  return interfaces;
}

export interface AllowRule {
  entry: string;
  host?: string;
  nets?: net.BlockList;
  /** undefined: any port */
  port?: number;
}

const VAR = 'SEJONG_FETCH_ALLOW';
const bad = (entry: string, why: string): never => {
  throw new ConfigError(`${VAR}: entry "${entry}" ${why}; expected host, host:port, IP, IP:port, [IPv6], [IPv6]:port, CIDR or CIDR:port (e.g. 127.0.0.1:8080, [::1]:9000, 10.0.0.0/8, 10.0.0.0/8:443)`);
};

function parsePort(entry: string, p: string | undefined): number | undefined {
  if (p === undefined || p === '*') return undefined;
  if (!/^\d{1,5}$/.test(p) || Number(p) < 1 || Number(p) > 65535) bad(entry, `has the port "${p}" (1 to 65535)`);
  return Number(p);
}

function netRule(entry: string, addr: string, bits: string | undefined, port: number | undefined): AllowRule {
  const f = net.isIP(addr);
  if (!f) bad(entry, `has "${addr}", which is not an IP address`);
  const max = f === 6 ? 128 : 32;
  if (bits !== undefined && (!/^\d{1,3}$/.test(bits) || Number(bits) > max)) bad(entry, `has the prefix length "/${bits}" (0 to ${max})`);
  const nets = new net.BlockList();
  nets.addSubnet(addr, bits === undefined ? max : Number(bits), f === 6 ? 'ipv6' : 'ipv4');
  return { entry, nets, port };
}

/** Parse one SEJONG_FETCH_ALLOW entry; a malformed entry is a start-up error naming the variable. */
export function parseAllowEntry(raw: string): AllowRule {
  const entry = raw.trim();
  let m: RegExpExecArray | null;
  // [v6], [v6]:port, [v6]/bits, [v6]/bits:port, [v6/bits]:port
  if ((m = /^\[([0-9a-fA-F:.]+)(?:\/(\d+))?\](?:\/(\d+))?(?::([^:]+))?$/.exec(entry))) {
    if (m[2] !== undefined && m[3] !== undefined) bad(entry, 'has two prefix lengths');
    if (!net.isIPv6(m[1]!)) bad(entry, `has "[${m[1]}]", which is not an IPv6 address`);
    return netRule(entry, m[1]!, m[2] ?? m[3], parsePort(entry, m[4]));
  }
  // bare IPv6 (two or more colons), optionally /bits: no port (write [v6]:port)
  if ((entry.match(/:/g) ?? []).length >= 2) {
    const [addr, bits, more] = entry.split('/');
    if (more !== undefined || !net.isIPv6(addr!)) bad(entry, 'is not an IPv6 address (write a port as [IPv6]:port)');
    return netRule(entry, addr!, bits, undefined);
  }
  const [left, portText, more] = entry.split(':');
  if (more !== undefined || left === undefined || left === '') bad(entry, 'is empty or has more than one ":"');
  const port = parsePort(entry, portText);
  if (/^[\d.]+(\/.*)?$/.test(left!)) {
    const [addr, bits, extra] = left!.split('/');
    if (extra !== undefined) bad(entry, 'has more than one "/"');
    return netRule(entry, addr!, bits, port);
  }
  const host = left!.toLowerCase().replace(/\.$/, '');
  if (!/^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/.test(host)) bad(entry, 'is not a host name');
  return { entry, host, port };
}

export class AddressPolicy {
  readonly rules: AllowRule[];
  constructor(allow: string[], private readonly selfPort: () => number | undefined = () => undefined) {
    this.rules = allow.filter((e) => e.trim() !== '').map(parseAllowEntry);
  }

  /** The host name is allow-listed for this port (any address it resolves to may be reached). */
  hostAllowed(host: string, port: number): boolean {
    const h = host.toLowerCase().replace(/\.$/, '');
    return this.rules.some((r) => r.host === h && (r.port === undefined || r.port === port));
  }

  /** The service itself: a loopback / unspecified / own-interface address at the service's own port. */
  isSelf(ip: string, port: number): boolean {
    const self = this.selfPort();
    if (!self || port !== self) return false;
    const v4 = embeddedIpv4(ip);
    return isLocalMachine(ip) || ownAddresses().has(ip.toLowerCase()) || (v4 !== undefined && ownAddresses().has(v4));
  }

  /** True when this address may be reached at this port (public, or allow-listed; never the service itself). */
  allowed(ip: string, port: number, host?: string): boolean {
    if (this.isSelf(ip, port)) return false;
    if (host && this.hostAllowed(host, port)) return true;
    const v4 = embeddedIpv4(ip);
    const listed = this.rules.some((r) => r.nets && (r.port === undefined || r.port === port)
      && (r.nets.check(ip, fam(ip)) || (v4 !== undefined && r.nets.check(v4, 'ipv4'))));
    return listed || !isBlockedAddress(ip);
  }
}
