import ipaddr from 'ipaddr.js';

/**
 * Which addresses a request to a tenant's URL may connect to: global unicast only. Everything an
 * internal network or the host itself answers on (loopback, RFC 1918, link-local and the cloud
 * metadata address, CGNAT, ULA, multicast, broadcast, unspecified, reserved and documentation
 * ranges, translation prefixes that embed an IPv4 address) is refused, IPv4-mapped forms as the
 * IPv4 address they carry. Pure: the address in, a reason or null out.
 */

/** The words a refusal carries: a class, never the address or anything learnt about the network. */
const REASONS: Record<string, string> = {
  loopback: 'loopback address',
  private: 'private address',
  uniqueLocal: 'private address',
  linkLocal: 'link-local address',
  carrierGradeNat: 'shared (CGNAT) address',
  unspecified: 'unspecified address',
  multicast: 'multicast address',
  broadcast: 'broadcast address',
};

/** Why connecting to this IP address is refused, or null when it is a public (global unicast) address. */
export function refusalOf(address: string): string | null {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address);
  } catch {
    return 'unreadable address';
  }
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    // ::ffff:a.b.c.d and the deprecated ::a.b.c.d reach the IPv4 address they carry.
    if (v6.isIPv4MappedAddress() || isIPv4Compatible(v6)) ip = v6.toIPv4Address();
  }
  const range = ip.range();
  if (range === 'unicast') return null;
  return REASONS[range] ?? 'reserved address';
}

/** ::a.b.c.d (RFC 4291 2.5.5.1, deprecated), but not :: or ::1, which are classed as themselves. */
function isIPv4Compatible(ip: ipaddr.IPv6): boolean {
  const p = ip.parts;
  return p.slice(0, 6).every((x) => x === 0) && (p[6] !== 0 || (p[7] ?? 0) > 1);
}
