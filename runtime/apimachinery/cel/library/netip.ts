/**
 * Go's net/netip as the IP and CIDR libraries use it: ParseAddr and ParsePrefix with their
 * error texts, the canonical String() (RFC 5952 for IPv6), Masked, Contains and the address
 * classes. Addresses are 4 or 16 bytes.
 */
export interface Addr {
  readonly bytes: Uint8Array;
  /** Set when the text had a `%zone`; Kubernetes refuses those. */
  readonly zone: string;
}

export interface Prefix {
  readonly addr: Addr;
  readonly bits: number;
}

export function parseAddr(s: string): Addr {
  const err = (msg: string): Error => new Error(`ParseAddr(${JSON.stringify(s)}): ${msg}`);
  for (const c of s) {
    if (c === '.') return { bytes: parseIPv4(s, err), zone: '' };
    if (c === ':') return parseIPv6(s, err);
    if (c === '%') throw err('missing IPv6 address');
  }
  throw err('unable to parse IP');
}

function parseIPv4(s: string, err: (msg: string) => Error): Uint8Array {
  const parts = s.split('.');
  if (parts.length !== 4) throw err(parts.length < 4 ? 'IPv4 address too short' : 'IPv4 address too long');
  const out = new Uint8Array(4);
  parts.forEach((p, i) => {
    if (p === '') throw err('IPv4 field must have at least one digit');
    if (!/^[0-9]+$/.test(p)) throw err(`unexpected character`);
    if (p.length > 1 && p[0] === '0') throw err('IPv4 field has octet with leading zero');
    const v = Number(p);
    if (v > 255) throw err('IPv4 field has value >255');
    out[i] = v;
  });
  return out;
}

function parseIPv6(input: string, err: (msg: string) => Error): Addr {
  let s = input;
  let zone = '';
  const pct = s.indexOf('%');
  if (pct >= 0) {
    zone = s.slice(pct + 1);
    s = s.slice(0, pct);
    if (zone === '') throw err('zone must be a non-empty string');
  }
  const out = new Uint8Array(16);
  let ellipsis = -1;
  let i = 0;
  let rest = s;
  if (rest.startsWith('::')) {
    ellipsis = 0;
    rest = rest.slice(2);
    if (rest === '') return { bytes: out, zone };
  }
  while (i < 16) {
    const m = /^[0-9a-fA-F]{1,4}/.exec(rest);
    if (m === null) throw err('each colon-separated field must have at least one digit');
    if (rest[m[0].length] === '.') {
      if (ellipsis < 0 && i !== 12) throw err('embedded IPv4 address must replace the final 2 fields of the address');
      if (i + 4 > 16) throw err('too many hex fields to fit an embedded IPv4 at the end of the address');
      out.set(parseIPv4(rest, err), i);
      i += 4;
      rest = '';
      break;
    }
    if (/^[0-9a-fA-F]{5}/.test(rest)) throw err('each colon-separated field must have at most 4 hex digits');
    const v = parseInt(m[0], 16);
    out[i] = v >> 8;
    out[i + 1] = v & 0xff;
    i += 2;
    rest = rest.slice(m[0].length);
    if (rest === '') break;
    if (rest[0] !== ':') throw err('unexpected character, want colon');
    if (rest.length === 1) throw err('colon must be followed by more characters');
    rest = rest.slice(1);
    if (rest[0] === ':') {
      if (ellipsis >= 0) throw err('multiple :: in address');
      ellipsis = i;
      rest = rest.slice(1);
      if (rest === '') break;
    }
  }
  if (rest !== '') throw err('trailing garbage after address');
  if (i < 16) {
    if (ellipsis < 0) throw err('address string too short');
    const n = 16 - i;
    out.copyWithin(ellipsis + n, ellipsis, i);
    out.fill(0, ellipsis, ellipsis + n);
  } else if (ellipsis >= 0) {
    throw err('the :: must expand to at least one field of zeros');
  }
  return { bytes: out, zone };
}

export function parsePrefix(s: string): Prefix {
  const err = (msg: string): Error => new Error(`netip.ParsePrefix(${JSON.stringify(s)}): ${msg}`);
  const slash = s.lastIndexOf('/');
  if (slash < 0) throw err("no '/'");
  let addr: Addr;
  try {
    addr = parseAddr(s.slice(0, slash));
  } catch (e) {
    throw err((e as Error).message);
  }
  if (addr.zone !== '') throw err('IPv6 zones cannot be present in a prefix');
  const bitsText = s.slice(slash + 1);
  if (!/^[0-9]+$/.test(bitsText) || (bitsText.length > 1 && bitsText[0] === '0')) throw err(`bad bits after slash: ${JSON.stringify(bitsText)}`);
  const bits = Number(bitsText);
  if (bits > addr.bytes.length * 8) throw err(`prefix length out of range`);
  return { addr, bits };
}

export function is4In6(a: Addr): boolean {
  return a.bytes.length === 16 && a.bytes.subarray(0, 10).every((b) => b === 0) && a.bytes[10] === 0xff && a.bytes[11] === 0xff;
}

export function addrString(a: Addr): string {
  const b = a.bytes;
  if (b.length === 4) return b.join('.');
  if (is4In6(a)) return `::ffff:${b.subarray(12).join('.')}${a.zone === '' ? '' : `%${a.zone}`}`;
  const groups = Array.from({ length: 8 }, (_, i) => (b[2 * i]! << 8) | b[2 * i + 1]!);
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  let out = '';
  for (let i = 0; i < 8; i++) {
    if (i === bestStart) {
      out += '::';
      i += bestLen - 1;
      continue;
    }
    if (out !== '' && !out.endsWith(':')) out += ':';
    out += groups[i]!.toString(16);
  }
  return out + (a.zone === '' ? '' : `%${a.zone}`);
}

export function prefixString(p: Prefix): string {
  return `${addrString(p.addr)}/${p.bits}`;
}

export function masked(p: Prefix): Prefix {
  const bytes = new Uint8Array(p.addr.bytes.length);
  for (let i = 0; i < bytes.length; i++) {
    const keep = Math.max(0, Math.min(8, p.bits - 8 * i));
    bytes[i] = p.addr.bytes[i]! & ((0xff << (8 - keep)) & 0xff);
  }
  return { addr: { bytes, zone: '' }, bits: p.bits };
}

export function addrEqual(a: Addr, b: Addr): boolean {
  return a.bytes.length === b.bytes.length && a.bytes.every((x, i) => x === b.bytes[i]) && a.zone === b.zone;
}

/** Prefix.Contains: same family, and the first bits match. */
export function contains(p: Prefix, a: Addr): boolean {
  if (a.bytes.length !== p.addr.bytes.length || a.zone !== '') return false;
  return addrEqual(masked(p).addr, masked({ addr: a, bits: p.bits }).addr);
}

/** Prefix.Overlaps. */
export function overlaps(p: Prefix, o: Prefix): boolean {
  if (p.addr.bytes.length !== o.addr.bytes.length) return false;
  const bits = Math.min(p.bits, o.bits);
  return addrEqual(masked({ addr: p.addr, bits }).addr, masked({ addr: o.addr, bits }).addr);
}

const inPrefix = (a: Addr, text: string): boolean => contains(parsePrefix(text), a);

export function isUnspecified(a: Addr): boolean {
  return a.bytes.every((b) => b === 0);
}

export function isLoopback(a: Addr): boolean {
  return a.bytes.length === 4 ? a.bytes[0] === 127 : inPrefix(a, '::1/128');
}

export function isLinkLocalMulticast(a: Addr): boolean {
  return a.bytes.length === 4 ? inPrefix(a, '224.0.0.0/24') : a.bytes[0] === 0xff && (a.bytes[1]! & 0x0f) === 0x02;
}

export function isLinkLocalUnicast(a: Addr): boolean {
  return a.bytes.length === 4 ? inPrefix(a, '169.254.0.0/16') : inPrefix(a, 'fe80::/10');
}

function isMulticast(a: Addr): boolean {
  return a.bytes.length === 4 ? (a.bytes[0]! & 0xf0) === 0xe0 : a.bytes[0] === 0xff;
}

/** IsGlobalUnicast: not unspecified, broadcast, loopback, multicast or link-local unicast. */
export function isGlobalUnicast(a: Addr): boolean {
  if (isUnspecified(a)) return false;
  if (a.bytes.length === 4 && a.bytes.every((b) => b === 255)) return false;
  return !isLoopback(a) && !isMulticast(a) && !isLinkLocalUnicast(a);
}
