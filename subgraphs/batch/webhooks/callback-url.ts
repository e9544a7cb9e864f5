/**
 * Which callback URLs we POST to. A callback URL is chosen by the client, so without checks it
 * would let them make our servers call our own network (SSRF): cloud metadata at 169.254.169.254,
 * Redis on loopback, anything on the private network. Refused: schemes other than http/https,
 * credentials in the URL, and hosts that are or resolve to a non-public address (RANGES below),
 * unless the policy allows them for an internal deployment.
 *
 * Validation at submission gives the client an early INVALID_PARAMETER; it proves nothing at
 * delivery time, when DNS may answer differently (DNS rebinding). So delivery connects through
 * `guardedLookup`, which checks the addresses the socket will actually use and pins them.
 */
import { promises as dns } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { ApiError } from '../../../schema/errors';

/** Address ranges refused by default; an address is reported under the first range holding it. */
export type AddressRange = 'unspecified' | 'loopback' | 'private' | 'cgnat' | 'link-local' | 'multicast' | 'ula' | 'reserved';

const RANGES: Readonly<Record<AddressRange, readonly string[]>> = {
  unspecified: ['0.0.0.0/8', '::/128'],
  loopback: ['127.0.0.0/8', '::1/128'],
  private: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fec0::/10' /* deprecated IPv6 site-local */],
  cgnat: ['100.64.0.0/10'],
  'link-local': ['169.254.0.0/16', 'fe80::/10'],
  multicast: ['224.0.0.0/4', 'ff00::/8'],
  ula: ['fc00::/7'],
  // 240/4 holds the broadcast address; ::/96 is the deprecated IPv4-compatible form (::127.0.0.1).
  reserved: ['240.0.0.0/4', '::/96'],
};

/**
 * The ranges `allowPrivateNetworks` opens. Link-local stays shut (it is where cloud metadata
 * lives, and no receiver runs there), as do multicast, unspecified and reserved, which are never
 * a receiver; list a CIDR in `allowedCidrs` to open one on purpose.
 */
const PRIVATE_NETWORKS: ReadonlySet<AddressRange> = new Set<AddressRange>(['loopback', 'private', 'cgnat', 'ula']);

/** IPv4-mapped IPv6 (::ffff:a.b.c.d) is matched by BlockList itself; NAT64 (RFC 6052) is not. */
const NAT64_PREFIX = '64:ff9b::';

/** The longest callback URL accepted, as browsers and proxies commonly cap URLs near this. */
const MAX_URL_LENGTH = 2048;

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has. @default dns.lookup with `all: true` */
export type HostLookup = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export interface CallbackUrlPolicy {
  /** For internal deployments: allow loopback, private (RFC 1918), CGNAT and IPv6 ULA receivers. @default false */
  readonly allowPrivateNetworks?: boolean;
  /** CIDRs (or single addresses) allowed whatever range they fall in, e.g. `['10.20.0.0/16']`. */
  readonly allowedCidrs?: readonly string[];
  /** How host names are resolved, at validation and at connect time; tests replace it. */
  readonly lookup?: HostLookup;
}

/** Why a callback URL was refused, for clients and logs that branch on it. */
export type CallbackUrlRefusal = 'malformed' | 'too_long' | 'scheme' | 'credentials' | 'refused_address' | 'unresolvable';

/** A client error from the catalogue (INVALID_PARAMETER on `callback_url`) with the reason. */
export class CallbackUrlError extends ApiError {
  constructor(
    readonly reason: CallbackUrlRefusal,
    message: string,
  ) {
    super('INVALID_PARAMETER', message, 'callback_url');
    this.name = 'CallbackUrlError';
  }
}

export type CallbackUrlCheck = { ok: true; url: URL; addresses: readonly ResolvedAddress[] } | { ok: false; error: CallbackUrlError };

/**
 * Validates a callback URL for submission: shape, scheme, credentials, and every address its
 * host resolves to. A host with one refused address among several is refused: which one a
 * connection would use is not ours to choose.
 */
export async function validateCallbackUrl(url: string, policy: CallbackUrlPolicy = {}): Promise<CallbackUrlCheck> {
  const shape = checkCallbackUrlShape(url, policy);
  if (!shape.ok || shape.addresses.length > 0) return shape;
  let addresses: readonly ResolvedAddress[];
  try {
    addresses = await (policy.lookup ?? lookupAll)(shape.url.hostname);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) return refuse('unresolvable', `callback_url's host ${shape.url.hostname} does not resolve`);
  for (const { address } of addresses) {
    const range = refusedRange(address, policy);
    // The resolved address is not echoed: it would tell a client how our internal DNS answers.
    if (range) return refuse('refused_address', `callback_url's host resolves to ${describe(range)}; receivers must be reachable on the public internet${privateHint(range)}`);
  }
  return { ok: true, url: shape.url, addresses };
}

/**
 * The checks that need no DNS: parsing, scheme, credentials, and the host when it is an IP
 * literal (then `addresses` holds it; for a host name it is empty). Delivery runs this before
 * every attempt, because sockets skip the lookup for IP literals.
 */
export function checkCallbackUrlShape(url: string, policy: CallbackUrlPolicy = {}): CallbackUrlCheck {
  if (typeof url !== 'string' || url.length > MAX_URL_LENGTH) {
    return refuse(typeof url === 'string' ? 'too_long' : 'malformed', `callback_url must be a URL of at most ${MAX_URL_LENGTH} characters`);
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refuse('malformed', 'callback_url is not an absolute URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return refuse('scheme', `callback_url must use https or http, not ${parsed.protocol.slice(0, -1)}`);
  if (parsed.username !== '' || parsed.password !== '') return refuse('credentials', 'callback_url must not carry a user name or password: verify our signature instead');
  const literal = ipLiteral(parsed.hostname);
  if (!literal) return { ok: true, url: parsed, addresses: [] };
  const range = refusedRange(literal.address, policy);
  if (range) return refuse('refused_address', `callback_url's host ${literal.address} is ${describe(range)}; receivers must be reachable on the public internet${privateHint(range)}`);
  return { ok: true, url: parsed, addresses: [literal] };
}

/** The refused range holding `address` under `policy`, or undefined when it may be called. */
export function refusedRange(address: string, policy: CallbackUrlPolicy = {}): AddressRange | undefined {
  const family = isIP(address);
  if (family === 0) throw new TypeError(`${address} is not an IP address`);
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (policy.allowedCidrs && allowList(policy.allowedCidrs).check(address, type)) return undefined;
  const range = RANGE_LISTS.find(([, list]) => list.check(address, type))?.[0];
  if (range && policy.allowPrivateNetworks && PRIVATE_NETWORKS.has(range)) return undefined;
  return range;
}

/** Raised through a socket when the host resolves to a refused address at connect time. */
export class RefusedAddressError extends Error {
  readonly code = 'ERR_WEBHOOK_REFUSED_ADDRESS';
  constructor(
    readonly hostname: string,
    readonly range: AddressRange,
  ) {
    super(`${hostname} resolves to ${describe(range)}`);
    this.name = 'RefusedAddressError';
  }
}

/**
 * A `lookup` for net.connect / tls.connect (undici's `connect` option) that resolves the host,
 * refuses the connection when any address is refused, and otherwise hands the socket exactly
 * the addresses it checked, so what was checked is what is connected to.
 */
export function guardedLookup(policy: CallbackUrlPolicy = {}): LookupFunction {
  const lookup = policy.lookup ?? lookupAll;
  return (hostname, options, callback) => {
    lookup(hostname)
      .then((resolved) => usableAddresses(hostname, resolved, familyNumber(options.family), policy))
      .then(
        // Node ≥ 20 asks for `all` when it races IPv4 and IPv6 (autoSelectFamily); the typings know one form only.
        (usable) => (options.all ? (callback as unknown as (error: null, all: ResolvedAddress[]) => void)(null, usable) : callback(null, usable[0].address, usable[0].family)),
        (error: NodeJS.ErrnoException) => callback(error, '', 4),
      );
  };
}

function familyNumber(family: number | 'IPv4' | 'IPv6' | undefined): number | undefined {
  return family === 'IPv4' ? 4 : family === 'IPv6' ? 6 : family;
}

/** The addresses a socket may use: all of them checked, none refused, of the family asked for. */
function usableAddresses(hostname: string, resolved: readonly ResolvedAddress[], family: number | undefined, policy: CallbackUrlPolicy): ResolvedAddress[] {
  for (const { address } of resolved) {
    const range = refusedRange(address, policy);
    if (range) throw new RefusedAddressError(hostname, range);
  }
  const usable = resolved.filter((entry) => !family || entry.family === family);
  if (usable.length === 0) throw Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' });
  return usable;
}

const RANGE_LISTS: ReadonlyArray<readonly [AddressRange, BlockList]> = (Object.keys(RANGES) as AddressRange[]).map((range) => {
  const list = new BlockList();
  for (const cidr of RANGES[range]) {
    addCidr(list, cidr);
    const [address, prefix] = cidr.split('/');
    // An IPv4 range seen through the NAT64 prefix is the same range.
    if (isIP(address) === 4) list.addSubnet(NAT64_PREFIX + address, 96 + Number(prefix), 'ipv6');
  }
  return [range, list] as const;
});

/** allowedCidrs compiled once per array: policies are configuration, made once and reused. */
const ALLOW_LISTS = new WeakMap<readonly string[], BlockList>();

function allowList(cidrs: readonly string[]): BlockList {
  let list = ALLOW_LISTS.get(cidrs);
  if (!list) {
    list = new BlockList();
    for (const cidr of cidrs) addCidr(list, cidr);
    ALLOW_LISTS.set(cidrs, list);
  }
  return list;
}

/** Adds `a.b.c.d/n`, `v6::/n` or a single address; a bad entry is a configuration bug and throws. */
function addCidr(list: BlockList, cidr: string): void {
  const [address, prefix, extra] = cidr.trim().split('/');
  const family = isIP(address);
  const bits = prefix === undefined ? (family === 4 ? 32 : 128) : Number(prefix);
  if (family === 0 || extra !== undefined || !/^\d{1,3}$/.test(String(bits)) || bits > (family === 4 ? 32 : 128)) {
    throw new TypeError(`${cidr} is not an IP address or CIDR`);
  }
  list.addSubnet(address, bits, family === 4 ? 'ipv4' : 'ipv6');
}

function ipLiteral(hostname: string): ResolvedAddress | undefined {
  const address = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  const family = isIP(address);
  return family === 0 ? undefined : { address, family: family as 4 | 6 };
}

async function lookupAll(hostname: string): Promise<readonly ResolvedAddress[]> {
  const all = await dns.lookup(hostname, { all: true, verbatim: true });
  return all.map(({ address, family }) => ({ address, family: family as 4 | 6 }));
}

const DESCRIPTIONS: Readonly<Record<AddressRange, string>> = {
  unspecified: 'an unspecified',
  loopback: 'a loopback',
  private: 'a private-network',
  cgnat: 'a carrier-grade NAT',
  'link-local': 'a link-local',
  multicast: 'a multicast',
  ula: 'a unique local (IPv6)',
  reserved: 'a reserved',
};

/** For the ranges an operator may open (a receiver on this machine or the bank's network), how to open them. */
function privateHint(range: AddressRange): string {
  return PRIVATE_NETWORKS.has(range) ? ' (an operator running the service for an internal network, or trying it on one machine, allows such receivers with BATCH_CALLBACK_ALLOW_PRIVATE=1)' : '';
}

function describe(range: AddressRange): string {
  return `${DESCRIPTIONS[range]} address`;
}

function refuse(reason: CallbackUrlRefusal, message: string): { ok: false; error: CallbackUrlError } {
  return { ok: false, error: new CallbackUrlError(reason, message) };
}
