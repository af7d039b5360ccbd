/**
 * The parts of Go's net/url the URL library needs: Parse, ParseRequestURI, Hostname, Port,
 * EscapedPath and Query, with Go's error texts. Strings are handled as UTF-8 bytes where Go
 * escapes, as Go does.
 */

export interface GoURL {
  readonly scheme: string;
  readonly opaque: string;
  readonly host: string;
  readonly path: string;
  readonly rawPath: string;
  readonly rawQuery: string;
}

type Mode = 'path' | 'pathSegment' | 'host' | 'zone' | 'userPassword' | 'queryComponent' | 'fragment';

/** url.ParseRequestURI: an absolute URI or an absolute path, no fragment. */
export function parseRequestURI(raw: string): GoURL {
  return wrap('parse', raw, () => parse(raw, true));
}

/** url.Parse: anything, with a #fragment. */
export function parseURL(raw: string): GoURL {
  const i = raw.indexOf('#');
  const u = i < 0 ? raw : raw.slice(0, i);
  const url = wrap('parse', u, () => parse(u, false));
  if (i >= 0) wrap('parse', raw, () => unescape(raw.slice(i + 1), 'fragment'));
  return url;
}

function wrap<T>(op: string, url: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw new Error(`${op} ${JSON.stringify(url)}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}

function parse(raw: string, viaRequest: boolean): GoURL {
  // eslint-disable-next-line no-control-regex -- Go's net/url refuses exactly these bytes
  if (/[\x00-\x1f\x7f]/.test(raw)) throw new Error('net/url: invalid control character in URL');
  if (raw === '' && viaRequest) throw new Error('empty url');
  const url = { scheme: '', opaque: '', host: '', path: '', rawPath: '', rawQuery: '' };
  if (raw === '*') return { ...url, path: '*' };
  let [scheme, rest] = getScheme(raw);
  url.scheme = scheme.toLowerCase();
  if (rest.endsWith('?') && rest.indexOf('?') === rest.length - 1) {
    rest = rest.slice(0, -1);
  } else {
    const q = rest.indexOf('?');
    if (q >= 0) {
      url.rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }
  if (!rest.startsWith('/')) {
    if (url.scheme !== '') return { ...url, opaque: rest };
    if (viaRequest) throw new Error('invalid URI for request');
    const slash = rest.indexOf('/');
    if ((slash < 0 ? rest : rest.slice(0, slash)).includes(':')) throw new Error('first path segment in URL cannot contain colon');
  }
  if ((url.scheme !== '' || (!viaRequest && !rest.startsWith('///'))) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    rest = '';
    const slash = authority.indexOf('/');
    if (slash >= 0) {
      rest = authority.slice(slash);
      authority = authority.slice(0, slash);
    }
    url.host = parseAuthority(authority);
  }
  url.path = unescape(rest, 'path');
  url.rawPath = escape(url.path, 'path') === rest ? '' : rest;
  return url;
}

function getScheme(raw: string): [string, string] {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (/[a-zA-Z]/.test(c)) continue;
    if (/[0-9+.-]/.test(c)) {
      if (i === 0) return ['', raw];
      continue;
    }
    if (c === ':') {
      if (i === 0) throw new Error('missing protocol scheme');
      return [raw.slice(0, i), raw.slice(i + 1)];
    }
    return ['', raw];
  }
  return ['', raw];
}

function parseAuthority(authority: string): string {
  const at = authority.lastIndexOf('@');
  const host = parseHost(at < 0 ? authority : authority.slice(at + 1));
  if (at >= 0) {
    const userinfo = authority.slice(0, at);
    if (!/^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(userinfo)) throw new Error('net/url: invalid userinfo');
    const colon = userinfo.indexOf(':');
    unescape(colon < 0 ? userinfo : userinfo.slice(0, colon), 'userPassword');
    if (colon >= 0) unescape(userinfo.slice(colon + 1), 'userPassword');
  }
  return host;
}

function parseHost(host: string): string {
  if (host.startsWith('[')) {
    const close = host.lastIndexOf(']');
    if (close < 0) throw new Error("missing ']' in host");
    const colonPort = host.slice(close + 1);
    if (!validOptionalPort(colonPort)) throw new Error(`invalid port ${JSON.stringify(colonPort)} after host`);
    const zone = host.slice(0, close).indexOf('%25');
    if (zone >= 0) {
      return unescape(host.slice(0, zone), 'host') + unescape(host.slice(zone, close), 'zone') + unescape(host.slice(close), 'host');
    }
  } else {
    const colon = host.lastIndexOf(':');
    if (colon >= 0) {
      const colonPort = host.slice(colon);
      if (!validOptionalPort(colonPort)) throw new Error(`invalid port ${JSON.stringify(colonPort)} after host`);
    }
  }
  return unescape(host, 'host');
}

function validOptionalPort(port: string): boolean {
  return port === '' || /^:[0-9]*$/.test(port);
}

const isHex = (c: number): boolean => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

function unescape(s: string, mode: Mode): string {
  const bytes = Buffer.from(s, 'utf8');
  const out: number[] = [];
  for (let i = 0; i < bytes.length;) {
    const c = bytes[i]!;
    if (c === 0x25) {
      if (i + 2 >= bytes.length || !isHex(bytes[i + 1]!) || !isHex(bytes[i + 2]!)) {
        throw new Error(`invalid URL escape ${JSON.stringify(bytes.subarray(i, i + 3).toString('utf8'))}`);
      }
      const value = parseInt(String.fromCharCode(bytes[i + 1]!, bytes[i + 2]!), 16);
      const triplet = bytes.subarray(i, i + 3).toString('latin1');
      if (mode === 'host' && value < 0x80 && triplet !== '%25') {
        throw new Error(`invalid URL escape ${JSON.stringify(triplet)}`);
      }
      if (mode === 'zone' && value < 0x80 && triplet !== '%25' && shouldEscape(value, 'host')) {
        throw new Error(`invalid URL escape ${JSON.stringify(triplet)}`);
      }
      out.push(value);
      i += 3;
    } else if (c === 0x2b) {
      out.push(mode === 'queryComponent' ? 0x20 : c);
      i++;
    } else {
      if ((mode === 'host' || mode === 'zone') && c < 0x80 && shouldEscape(c, mode)) {
        throw new Error(`invalid character ${JSON.stringify(String.fromCharCode(c))} in host name`);
      }
      out.push(c);
      i++;
    }
  }
  return Buffer.from(out).toString('utf8');
}

function shouldEscape(c: number, mode: Mode): boolean {
  const ch = String.fromCharCode(c);
  if (/[a-zA-Z0-9]/.test(ch)) return false;
  if ((mode === 'host' || mode === 'zone') && `!$&'()*+,;=:[]<>"`.includes(ch)) return false;
  if ('-_.~'.includes(ch)) return false;
  if ('$&+,/:;=?@'.includes(ch)) {
    switch (mode) {
      case 'path':
        return ch === '?';
      case 'pathSegment':
        return '/;,?'.includes(ch);
      case 'userPassword':
        return '@/?:'.includes(ch);
      case 'queryComponent':
        return true;
      case 'fragment':
        return false;
      default:
        break;
    }
  }
  if (mode === 'fragment' && '!()*'.includes(ch)) return false;
  return true;
}

function escape(s: string, mode: Mode): string {
  let out = '';
  for (const c of Buffer.from(s, 'utf8')) {
    if (!shouldEscape(c, mode)) out += String.fromCharCode(c);
    else if (c === 0x20 && mode === 'queryComponent') out += '+';
    else out += `%${c.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function validEncoded(s: string, mode: Mode): boolean {
  for (const c of Buffer.from(s, 'utf8')) {
    if (`!$&'()*+,;=:@[]%`.includes(String.fromCharCode(c))) continue;
    if (shouldEscape(c, mode)) return false;
  }
  return true;
}

function splitHostPort(hostPort: string): [string, string] {
  let host = hostPort;
  let port = '';
  const colon = host.lastIndexOf(':');
  if (colon >= 0 && validOptionalPort(host.slice(colon))) {
    port = host.slice(colon + 1);
    host = host.slice(0, colon);
  }
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return [host, port];
}

export function hostname(u: GoURL): string {
  return splitHostPort(u.host)[0];
}

export function port(u: GoURL): string {
  return splitHostPort(u.host)[1];
}

export function escapedPath(u: GoURL): string {
  if (u.rawPath !== '' && validEncoded(u.rawPath, 'path')) {
    try {
      if (unescape(u.rawPath, 'path') === u.path) return u.rawPath;
    } catch {
      // fall through to escaping the decoded path
    }
  }
  if (u.path === '*') return '*';
  return escape(u.path, 'path');
}

/** url.Values of the raw query: keys in first-seen order, malformed pairs skipped. */
export function query(u: GoURL): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const pair of u.rawQuery.split('&')) {
    if (pair === '' || pair.includes(';')) continue;
    const eq = pair.indexOf('=');
    try {
      const key = unescape(eq < 0 ? pair : pair.slice(0, eq), 'queryComponent');
      const value = unescape(eq < 0 ? '' : pair.slice(eq + 1), 'queryComponent');
      out.set(key, [...(out.get(key) ?? []), value]);
    } catch {
      // ParseQuery drops pairs it cannot unescape
    }
  }
  return out;
}

/** URL.String(), enough for equality: scheme, authority, path and query. */
export function urlString(u: GoURL): string {
  let s = u.scheme === '' ? '' : `${u.scheme}:`;
  if (u.opaque !== '') s += u.opaque;
  else {
    if (u.host !== '' || u.scheme !== '') s += `//${u.host}`;
    s += escapedPath(u);
  }
  return u.rawQuery === '' ? s : `${s}?${u.rawQuery}`;
}
