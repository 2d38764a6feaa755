/**
 * SSRF guard: a webhook's host is resolved and every address it resolves to
 * must be a public one, at registration and again at each delivery (DNS can
 * change between the two), and the delivery then connects to the address
 * checked here (lib/webhooks/post.ts pins it), so a second lookup cannot
 * answer another one (DNS rebinding). Refused: loopback, private (RFC 1918,
 * unique local fc00::/7), link-local (169.254/16 with the cloud metadata
 * address 169.254.169.254, fe80::/10), CGNAT 100.64/10, "this network"
 * 0/8, multicast, reserved and broadcast, the IPv6 unspecified and
 * documentation forms, and any of the IPv4 ones written as an IPv6 address
 * (IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d, NAT64 64:ff9b::/96).
 * A deployment that allows local endpoints (WEBHOOKS_ALLOW_LOCAL, the local
 * stack) takes loopback, and nothing else of these.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** One address a host resolves to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all its addresses (the default is the system's resolver, as connections use it). */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));

/** Why an endpoint cannot be delivered to. */
export class RefusedAddressError extends Error {
  override readonly name = 'RefusedAddressError';
}

const LOOPBACK: Array<[string, number, 'ipv4' | 'ipv6']> = [
  ['127.0.0.0', 8, 'ipv4'],
  ['::1', 128, 'ipv6'],
];

const INTERNAL: Array<[string, number, 'ipv4' | 'ipv6', string]> = [
  ['0.0.0.0', 8, 'ipv4', 'a "this network" address'],
  ['10.0.0.0', 8, 'ipv4', 'a private address'],
  ['100.64.0.0', 10, 'ipv4', 'a shared (CGNAT) address'],
  ['169.254.0.0', 16, 'ipv4', 'a link-local address (cloud metadata among them)'],
  ['172.16.0.0', 12, 'ipv4', 'a private address'],
  ['192.0.0.0', 24, 'ipv4', 'a protocol-assignment address'],
  ['192.168.0.0', 16, 'ipv4', 'a private address'],
  ['198.18.0.0', 15, 'ipv4', 'a benchmarking address'],
  ['224.0.0.0', 4, 'ipv4', 'a multicast address'],
  ['240.0.0.0', 4, 'ipv4', 'a reserved or broadcast address'],
  ['::', 128, 'ipv6', 'the unspecified address'],
  ['fc00::', 7, 'ipv6', 'a private (unique local) address'],
  ['fe80::', 10, 'ipv6', 'a link-local address'],
  ['fec0::', 10, 'ipv6', 'a site-local address'],
  ['ff00::', 8, 'ipv6', 'a multicast address'],
  ['2001:db8::', 32, 'ipv6', 'a documentation address'],
];

function blockList(ranges: Array<[string, number, 'ipv4' | 'ipv6', ...unknown[]]>): BlockList {
  const list = new BlockList();
  for (const [network, prefix, family] of ranges) list.addSubnet(network, prefix, family);
  return list;
}

let lists: { loopback: BlockList; internal: Array<[BlockList, string]> } | undefined;
const ranges = () =>
  (lists ??= {
    loopback: blockList(LOOPBACK),
    internal: INTERNAL.map((range) => [blockList([range]), range[3]]),
  });

/** The 8 groups of an IPv6 address as numbers (the address is one isIP accepts as 6). */
function ipv6Groups(address: string): number[] {
  let text = address.replace(/%.*$/, '');
  // A trailing dotted IPv4 part is two groups.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const part = (s: string | undefined) => (s ? s.split(':').map((group) => parseInt(group, 16)) : []);
  const left = part(head);
  const right = part(tail);
  return tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
}

/** The IPv4 address an IPv6 address stands for, if it embeds one (mapped, compatible, NAT64). */
export function embeddedIpv4(address: string): string | undefined {
  const groups = ipv6Groups(address);
  const v4 = () => `${groups[6] >> 8}.${groups[6] & 0xff}.${groups[7] >> 8}.${groups[7] & 0xff}`;
  const zeros = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
  if (zeros(0, 5) && groups[5] === 0xffff) return v4();
  // ::a.b.c.d (deprecated "compatible" form), but not :: and ::1 themselves.
  if (zeros(0, 6) && (groups[6] !== 0 || groups[7] > 1)) return v4();
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6)) return v4();
  return undefined;
}

/** Why an address is refused, or undefined when deliveries may go there. */
export function refusedReason(address: string, { allowLoopback }: { allowLoopback: boolean }): string | undefined {
  const family = isIP(address);
  if (family === 0) return 'not an IP address';
  if (family === 6) {
    const ipv4 = embeddedIpv4(address);
    if (ipv4 !== undefined) {
      const reason = refusedReason(ipv4, { allowLoopback });
      return reason && `${reason} (${ipv4}, written as IPv6)`;
    }
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  const { loopback, internal } = ranges();
  if (loopback.check(address, type)) return allowLoopback ? undefined : 'a loopback address';
  return internal.find(([list]) => list.check(address, type))?.[1];
}

/** The host of a URL as a resolver or isIP takes it: an IPv6 literal without its brackets. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * The address to connect to for `host`: every address it resolves to must be allowed (one refused one is
 * enough to refuse: a name answering both kinds is not one to trust), and the first is used.
 */
export async function checkedAddress(host: string, options: { resolver: Resolver; allowLoopback: boolean }): Promise<ResolvedAddress> {
  const family = isIP(host);
  let addresses: ResolvedAddress[];
  if (family !== 0) addresses = [{ address: host, family: family === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await options.resolver(host);
    } catch (error) {
      throw new RefusedAddressError(`${host} does not resolve (${(error as { code?: string }).code ?? (error as Error).message})`);
    }
  }
  if (addresses.length === 0) throw new RefusedAddressError(`${host} does not resolve`);
  for (const { address } of addresses) {
    const reason = refusedReason(address, options);
    if (reason) throw new RefusedAddressError(`${host} resolves to ${address}, ${reason}`);
  }
  return addresses[0];
}
