/** A parsed media type: `application/json;as=Table;v=v1;g=meta.k8s.io`. */
export interface MediaType {
  /** Lower-cased top-level type, e.g. `application`. */
  readonly type: string;
  /** Lower-cased subtype, e.g. `json`, `strategic-merge-patch+json`. */
  readonly subtype: string;
  /** Parameters in header order; names lower-cased, values as sent (quotes removed). */
  readonly params: Readonly<Record<string, string>>;
}

/**
 * Parses one media type (mime.ParseMediaType). Returns undefined for a
 * malformed value (missing `/`, empty type or subtype); a bare `*` is
 * read as `*\/*` as Go's parser does. Parameters without `=` are ignored.
 */
export function parseMediaType(header: string): MediaType | undefined {
  const [head = '', ...rest] = splitOutsideQuotes(header, ';');
  let full = head.trim().toLowerCase();
  if (full === '*') full = '*/*';
  const slash = full.indexOf('/');
  if (slash <= 0 || slash === full.length - 1 || full.indexOf('/', slash + 1) !== -1) return undefined;
  const params: Record<string, string> = {};
  for (const part of rest) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim().toLowerCase();
    let value = part.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1).replace(/\\(.)/g, '$1');
    if (name !== '') params[name] = value;
  }
  return { type: full.slice(0, slash).trim(), subtype: full.slice(slash + 1).trim(), params };
}

/**
 * Parses a request's Content-Type as Go's mime.ParseMediaType does before
 * kube-apiserver picks a decoder (NegotiateInputSerializer): undefined, for a
 * 415, when the type is not `token/token` or a parameter is malformed
 * (`application/json;;;`, `application/json;charset`, an unterminated quote,
 * a repeated name). One trailing `;` is allowed.
 */
export function parseContentType(header: string): MediaType | undefined {
  const semi = header.indexOf(';');
  const full = (semi === -1 ? header : header.slice(0, semi)).trim().toLowerCase();
  const [type, afterType] = consumeToken(full);
  if (type === '' || !afterType.startsWith('/')) return undefined;
  const [subtype, afterSubtype] = consumeToken(afterType.slice(1));
  if (subtype === '' || afterSubtype !== '') return undefined;
  const params: Record<string, string> = {};
  let rest = semi === -1 ? '' : header.slice(semi);
  for (rest = rest.trimStart(); rest !== ''; rest = rest.trimStart()) {
    const param = consumeMediaParam(rest);
    if (param === undefined) {
      if (rest.trim() === ';') break;
      return undefined;
    }
    if (Object.prototype.hasOwnProperty.call(params, param.name)) return undefined;
    params[param.name] = param.value;
    rest = param.rest;
  }
  return { type, subtype, params };
}

const TSPECIALS = ' ()<>@,;:\\"/[]?=';

function isTokenChar(c: string): boolean {
  const code = c.charCodeAt(0);
  return code > 0x20 && code < 0x80 && !TSPECIALS.includes(c);
}

function consumeToken(v: string): [token: string, rest: string] {
  let i = 0;
  while (i < v.length && isTokenChar(v[i]!)) i++;
  return [v.slice(0, i), v.slice(i)];
}

/** `; name=value` (value a token or a quoted string), or undefined when malformed. */
function consumeMediaParam(v: string): { name: string; value: string; rest: string } | undefined {
  let rest = v.trimStart();
  if (!rest.startsWith(';')) return undefined;
  const [rawName, afterName] = consumeToken(rest.slice(1).trimStart());
  if (rawName === '') return undefined;
  rest = afterName.trimStart();
  if (!rest.startsWith('=')) return undefined;
  rest = rest.slice(1).trimStart();
  const [value, afterValue] = rest.startsWith('"') ? consumeQuoted(rest) : consumeToken(rest);
  if (value === '' && afterValue === rest) return undefined;
  return { name: rawName.toLowerCase(), value, rest: afterValue };
}

/** A quoted-string with backslash escapes; `['', v]` when unterminated. */
function consumeQuoted(v: string): [value: string, rest: string] {
  let out = '';
  for (let i = 1; i < v.length; i++) {
    const c = v[i]!;
    if (c === '"') return [out, v.slice(i + 1)];
    if (c === '\\' && i + 1 < v.length) {
      out += v[++i];
      continue;
    }
    if (c === '\r' || c === '\n') return ['', v];
    out += c;
  }
  return ['', v];
}

/**
 * The patch type a PATCH's Content-Type names, as kube-apiserver reads it
 * (PatchResource, behind go-restful's Consumes): the text before the first
 * `;`, compared as it is (`APPLICATION/MERGE-PATCH+JSON` names no patch
 * type); parameters, even malformed ones, are ignored.
 */
export function patchTypeOf(header: string): string {
  const semi = header.indexOf(';');
  return semi > 0 ? header.slice(0, semi) : header;
}

/** `type/subtype` without parameters. */
export function mediaTypeEssence(mt: MediaType): string {
  return `${mt.type}/${mt.subtype}`;
}

/** Splits on `sep` outside quoted strings (parameters on `;`, Accept clauses on `,`). */
export function splitOutsideQuotes(s: string, sep: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '"' && s[i - 1] !== '\\') quoted = !quoted;
    if (c === sep && !quoted) {
      out.push(cur);
      cur = '';
    } else {
      cur += c;
    }
  }
  out.push(cur);
  return out;
}
