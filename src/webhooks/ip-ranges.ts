/**
 * Classifies IP addresses for the webhook address guard: which ranges a callback may never
 * reach (loopback, private, link-local, CGNAT, metadata, multicast, reserved …). Pure; works on
 * the 4 or 16 bytes of an address so every textual form (`::ffff:7f00:1`, `[::1]`, `0x7f.1`
 * after URL normalisation) is judged by what it is, not by how it is written.
 */
import { isIPv4, isIPv6 } from 'node:net';

interface Range {
  bytes: number[];
  prefix: number;
  reason: string;
}

function v4(cidr: string, reason: string): Range {
  const [a, p] = cidr.split('/');
  return { bytes: a.split('.').map(Number), prefix: Number(p), reason };
}

function v6(cidr: string, reason: string): Range {
  const [a, p] = cidr.split('/');
  return { bytes: parseIPv6(a)!, prefix: Number(p), reason };
}

/** IPv4 ranges refused (RFC 6890 special-purpose registry, plus what clouds use for metadata). */
const V4_RANGES: Range[] = [
  v4('169.254.169.254/32', 'metadata'),
  v4('0.0.0.0/8', 'unspecified'),
  v4('10.0.0.0/8', 'private'),
  v4('100.64.0.0/10', 'cgnat'),
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.0.0/16', 'link-local'),
  v4('172.16.0.0/12', 'private'),
  v4('192.0.0.0/24', 'reserved'),
  v4('192.0.2.0/24', 'reserved'),
  v4('192.88.99.0/24', 'reserved'),
  v4('192.168.0.0/16', 'private'),
  v4('198.18.0.0/15', 'reserved'),
  v4('198.51.100.0/24', 'reserved'),
  v4('203.0.113.0/24', 'reserved'),
  v4('224.0.0.0/4', 'multicast'),
  v4('255.255.255.255/32', 'broadcast'),
  v4('240.0.0.0/4', 'reserved'),
];

/** IPv6 ranges refused. Embedded-IPv4 forms are unwrapped first and judged as IPv4. */
const V6_RANGES: Range[] = [
  v6('fd00:ec2::254/128', 'metadata'),
  v6('::/128', 'unspecified'),
  v6('::1/128', 'loopback'),
  v6('fe80::/10', 'link-local'),
  v6('fec0::/10', 'site-local'),
  v6('fc00::/7', 'unique-local'),
  v6('ff00::/8', 'multicast'),
  v6('100::/64', 'reserved'),
  v6('2001:db8::/32', 'reserved'),
  v6('2001:10::/28', 'reserved'),
];

/** Parses an IPv6 literal (optionally bracketed, with an embedded dotted quad) into 16 bytes. */
export function parseIPv6(text: string): number[] | null {
  let s = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  if (!isIPv6(s)) return null;
  let tail: number[] = [];
  const lastColon = s.lastIndexOf(':');
  const last = s.slice(lastColon + 1);
  if (last.includes('.')) {
    const q = last.split('.').map(Number);
    tail = [(q[0] << 8) | q[1], (q[2] << 8) | q[3]];
    // A dotted quad stands for two 16-bit groups: hold their place with '0:0', fill in below.
    s = s.slice(0, lastColon + 1) + '0:0';
  }
  const [head, rest] = s.includes('::') ? s.split('::') : [s, null];
  const hs = head === '' ? [] : head.split(':');
  const rs = rest === null || rest === '' ? [] : rest.split(':');
  let groups: string[];
  if (rest === null) groups = hs;
  else groups = [...hs, ...Array(8 - hs.length - rs.length).fill('0'), ...rs];
  const words = groups.map((g) => parseInt(g, 16));
  if (tail.length) words.splice(words.length - 2, 2, ...tail);
  if (words.length !== 8) return null;
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

function inRange(bytes: number[], r: Range): boolean {
  let bits = r.prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((bytes[i] & mask) !== (r.bytes[i] & mask)) return false;
  }
  return true;
}

function classifyV4(bytes: number[]): string | null {
  for (const r of V4_RANGES) if (inRange(bytes, r)) return r.reason;
  return null;
}

/** The IPv4 address embedded in an IPv6 one (mapped, compatible, NAT64, 6to4), if any. */
function embeddedV4(b: number[]): number[] | null {
  const zero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (deprecated compatible; ::/::1 are handled as v6).
  if (zero(0, 10) && b[10] === 0xff && b[11] === 0xff) return b.slice(12);
  if (zero(0, 12) && !(zero(12, 15) && b[15] <= 1)) return b.slice(12);
  // 64:ff9b::/96 (NAT64 well-known prefix) and 64:ff9b:1::/48 (local-use NAT64).
  if (b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b) return b.slice(12);
  // 2002::/16 (6to4): bits 16–48 are the IPv4 address.
  if (b[0] === 0x20 && b[1] === 0x02) return b.slice(2, 6);
  return null;
}

/**
 * Why a webhook may not connect to `address` ('loopback', 'private', 'metadata', …), or null
 * when it is an ordinary public address. Anything that does not parse as an IP is refused.
 */
export function forbiddenReason(address: string): string | null {
  if (isIPv4(address)) return classifyV4(address.split('.').map(Number));
  const b = parseIPv6(address);
  if (!b) return 'not-an-ip';
  const inner = embeddedV4(b);
  if (inner) {
    const r = classifyV4(inner);
    if (r) return `${r} (ipv4 embedded in ipv6)`;
  }
  for (const r of V6_RANGES) if (inRange(b, r)) return r.reason;
  return null;
}

/** True for an IPv4 or IPv6 literal (brackets allowed), false for a host name. */
export function isIpLiteral(host: string): boolean {
  return isIPv4(host) || parseIPv6(host) !== null;
}
