import { isIP } from 'node:net';

/** An IP family, as Kubernetes names them. */
export type IPFamily = 'IPv4' | 'IPv6';

/**
 * A CIDR such as `10.0.0.0/24` or `fd00::/108`, with its addresses as bigints so that both
 * families share one arithmetic. `base` is the network address (host bits cleared).
 */
export interface CIDR {
  readonly family: IPFamily;
  readonly base: bigint;
  readonly prefixLength: number;
  /** 32 or 128. */
  readonly bits: number;
  /** The canonical text (`10.0.0.0/24`): what error messages and stored ranges show. */
  readonly text: string;
}

/** Parses a CIDR; undefined when it is not one (host bits set are cleared, as Go's net.ParseCIDR does). */
export function parseCIDR(text: string): CIDR | undefined {
  const slash = text.indexOf('/');
  if (slash < 0) return undefined;
  const ip = parseIP(text.slice(0, slash));
  const lengthText = text.slice(slash + 1);
  if (ip === undefined || !/^\d{1,3}$/.test(lengthText)) return undefined;
  const bits = ip.family === 'IPv4' ? 32 : 128;
  const prefixLength = Number(lengthText);
  if (prefixLength > bits) return undefined;
  const hostBits = BigInt(bits - prefixLength);
  const base = (ip.value >> hostBits) << hostBits;
  return { family: ip.family, base, prefixLength, bits, text: `${formatIP(base, ip.family)}/${prefixLength}` };
}

/** Parses an IPv4 or IPv6 address (no zone); undefined when it is not one. */
export function parseIP(text: string): { family: IPFamily; value: bigint } | undefined {
  const kind = isIP(text);
  if (kind === 4) return { family: 'IPv4', value: text.split('.').reduce((acc, octet) => (acc << 8n) | BigInt(Number(octet)), 0n) };
  if (kind !== 6 || text.includes('%')) return undefined;
  return { family: 'IPv6', value: parseIPv6(text) };
}

/**
 * netutils.ParseIPSloppy: parseIP, and also IPv4 octets with leading zeros, read as decimal (as
 * Go's net.ParseIP did before Go 1.17; kube keeps accepting them in fields that always did).
 */
export function parseIPSloppy(text: string): { family: IPFamily; value: bigint } | undefined {
  const strict = parseIP(text);
  if (strict !== undefined) return strict;
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  const octets = m === null ? [] : m.slice(1).map(Number);
  if (octets.length !== 4 || octets.some((o) => o > 255)) return undefined;
  return { family: 'IPv4', value: octets.reduce((acc, o) => (acc << 8n) | BigInt(o), 0n) };
}

/** The IPv6 value of text that node:net already accepted (`::` shortening, embedded IPv4). */
function parseIPv6(text: string): bigint {
  let groups: string[];
  const dotted = text.lastIndexOf('.') >= 0 ? text.slice(text.lastIndexOf(':') + 1) : undefined;
  let head = text;
  if (dotted !== undefined) {
    const v4 = dotted.split('.').map(Number);
    head = `${text.slice(0, text.length - dotted.length)}${((v4[0] as number) * 256 + (v4[1] as number)).toString(16)}:${((v4[2] as number) * 256 + (v4[3] as number)).toString(16)}`;
  }
  const halves = head.split('::');
  if (halves.length === 2) {
    const left = halves[0] === '' ? [] : (halves[0] as string).split(':');
    const right = halves[1] === '' ? [] : (halves[1] as string).split(':');
    groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  } else {
    groups = head.split(':');
  }
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

/** The canonical text of an address: dotted IPv4, RFC 5952 IPv6 (as Go's net.IP.String). */
export function formatIP(value: bigint, family: IPFamily): string {
  if (family === 'IPv4') return [24n, 16n, 8n, 0n].map((s) => String((value >> s) & 0xffn)).join('.');
  const groups = Array.from({ length: 8 }, (_, i) => Number((value >> BigInt(112 - 16 * i)) & 0xffffn));
  // The longest run of two or more zero groups becomes `::`.
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

/** Whether the address lies in the CIDR. */
export function cidrContains(cidr: CIDR, ip: { family: IPFamily; value: bigint }): boolean {
  if (ip.family !== cidr.family) return false;
  const hostBits = BigInt(cidr.bits - cidr.prefixLength);
  return ip.value >> hostBits === cidr.base >> hostBits;
}
