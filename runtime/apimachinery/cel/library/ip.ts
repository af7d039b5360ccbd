import type { Environment } from '@marcbachmann/cel-js';
import type { CelEquatable } from '../equality.js';
import { celError, define } from './define.js';
import * as netip from './netip.js';

/**
 * Kubernetes' IP and CIDR libraries (k8s.io/apiserver/pkg/cel/library/ip.go, cidr.go): ip(),
 * isIP(), ip.isCanonical(), the address classes, cidr(), isCIDR(), containsIP/containsCIDR,
 * masked(), prefixLength(), string(). Zones and IPv4-mapped IPv6 addresses are refused.
 */
export class IPValue implements CelEquatable {
  constructor(readonly addr: netip.Addr) {}
  equalsCel(other: unknown): boolean {
    return other instanceof IPValue && netip.addrEqual(this.addr, other.addr);
  }
}

export class CIDRValue implements CelEquatable {
  constructor(readonly prefix: netip.Prefix) {}
  equalsCel(other: unknown): boolean {
    return other instanceof CIDRValue && other.prefix.bits === this.prefix.bits && netip.addrEqual(this.prefix.addr, other.prefix.addr);
  }
}

class IPNamespace {}

const IP = 'net.IP';
const CIDR = 'net.CIDR';

function parseIP(raw: string): netip.Addr {
  let addr: netip.Addr;
  try {
    addr = netip.parseAddr(raw);
  } catch (e) {
    throw celError(`IP Address ${JSON.stringify(raw)} parse error during conversion from string: ${(e as Error).message}`);
  }
  if (addr.zone !== '') throw celError(`IP address ${JSON.stringify(raw)} with zone value is not allowed`);
  if (netip.is4In6(addr)) throw celError(`IPv4-mapped IPv6 address ${JSON.stringify(raw)} is not allowed`);
  return addr;
}

function parseCIDR(raw: string): netip.Prefix {
  let prefix: netip.Prefix;
  try {
    prefix = netip.parsePrefix(raw);
  } catch (e) {
    throw celError(`network address parse error during conversion from string: ${(e as Error).message}`);
  }
  if (netip.is4In6(prefix.addr)) throw celError(`IPv4-mapped IPv6 address ${JSON.stringify(raw)} is not allowed`);
  return prefix;
}

const succeeds = (fn: () => unknown): boolean => {
  try {
    fn();
    return true;
  } catch {
    return false;
  }
};

function containsCIDR(p: netip.Prefix, o: netip.Prefix): boolean {
  return netip.overlaps(p, o) && p.bits <= o.bits;
}

export function registerIP(env: Environment): void {
  env.registerType(IP, IPValue);
  env.registerType(CIDR, CIDRValue);
  env.registerType('kubernetes.IPNamespace', IPNamespace);
  env.registerConstant('ip', 'kubernetes.IPNamespace', new IPNamespace());
  env.registerOperator(`${IP} == ${IP}`, (a: IPValue, b: IPValue) => a.equalsCel(b));
  env.registerOperator(`${CIDR} == ${CIDR}`, (a: CIDRValue, b: CIDRValue) => a.equalsCel(b));

  define(env, `ip(string): ${IP}`, (s: string) => new IPValue(parseIP(s)));
  define(env, 'isIP(string): bool', (s: string) => succeeds(() => parseIP(s)));
  define(env, 'kubernetes.IPNamespace.isCanonical(string): bool', (_: IPNamespace, s: string) => netip.addrString(parseIP(s)) === s);
  define(env, `${IP}.family(): int`, (ip: IPValue) => (ip.addr.bytes.length === 4 ? 4n : 6n));
  define(env, `${IP}.isUnspecified(): bool`, (ip: IPValue) => netip.isUnspecified(ip.addr));
  define(env, `${IP}.isLoopback(): bool`, (ip: IPValue) => netip.isLoopback(ip.addr));
  define(env, `${IP}.isLinkLocalMulticast(): bool`, (ip: IPValue) => netip.isLinkLocalMulticast(ip.addr));
  define(env, `${IP}.isLinkLocalUnicast(): bool`, (ip: IPValue) => netip.isLinkLocalUnicast(ip.addr));
  define(env, `${IP}.isGlobalUnicast(): bool`, (ip: IPValue) => netip.isGlobalUnicast(ip.addr));
  define(env, `string(${IP}): string`, (ip: IPValue) => netip.addrString(ip.addr));

  define(env, `cidr(string): ${CIDR}`, (s: string) => new CIDRValue(parseCIDR(s)));
  define(env, 'isCIDR(string): bool', (s: string) => succeeds(() => parseCIDR(s)));
  define(env, `${CIDR}.containsIP(string): bool`, (c: CIDRValue, s: string) => netip.contains(c.prefix, parseIP(s)));
  define(env, `${CIDR}.containsIP(${IP}): bool`, (c: CIDRValue, ip: IPValue) => netip.contains(c.prefix, ip.addr));
  define(env, `${CIDR}.containsCIDR(string): bool`, (c: CIDRValue, s: string) => containsCIDR(c.prefix, parseCIDR(s)));
  define(env, `${CIDR}.containsCIDR(${CIDR}): bool`, (c: CIDRValue, o: CIDRValue) => containsCIDR(c.prefix, o.prefix));
  define(env, `${CIDR}.ip(): ${IP}`, (c: CIDRValue) => new IPValue(c.prefix.addr));
  define(env, `${CIDR}.prefixLength(): int`, (c: CIDRValue) => BigInt(c.prefix.bits));
  define(env, `${CIDR}.masked(): ${CIDR}`, (c: CIDRValue) => new CIDRValue(netip.masked(c.prefix)));
  define(env, `string(${CIDR}): string`, (c: CIDRValue) => netip.prefixString(c.prefix));
}
