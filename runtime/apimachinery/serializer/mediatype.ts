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
