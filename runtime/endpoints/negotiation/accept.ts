import { parseMediaType } from '../../apimachinery/serializer/mediatype.js';

/** One clause of an Accept header (goautoneg.Accept): `q` is taken out of the parameters. */
export interface AcceptClause {
  readonly type: string;
  readonly subtype: string;
  readonly q: number;
  readonly params: Readonly<Record<string, string>>;
}

/**
 * Parses an Accept header into clauses ordered as goautoneg orders them: higher q first, then
 * concrete types before `*` ones; otherwise the client's order is kept. Malformed clauses and
 * clauses with q=0 are dropped.
 */
export function parseAccept(header: string): AcceptClause[] {
  const clauses: AcceptClause[] = [];
  for (const part of splitClauses(header)) {
    if (part.trim() === '') continue;
    const mt = parseMediaType(part);
    if (mt === undefined) continue;
    const { q: rawQ, ...params } = mt.params;
    const q = rawQ === undefined ? 1 : Number.parseFloat(rawQ);
    if (!Number.isFinite(q) || q <= 0) continue;
    clauses.push({ type: mt.type, subtype: mt.subtype, q, params });
  }
  const rank = (c: AcceptClause): number => (c.type === '*' ? 2 : c.subtype === '*' ? 1 : 0);
  return clauses
    .map((c, i) => ({ c, i }))
    .sort((a, b) => b.c.q - a.c.q || rank(a.c) - rank(b.c) || a.i - b.i)
    .map(({ c }) => c);
}

/** Splits on commas outside quoted parameter values. */
function splitClauses(header: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < header.length; i++) {
    const c = header[i];
    if (c === '"' && header[i - 1] !== '\\') quoted = !quoted;
    if (c === ',' && !quoted) {
      out.push(cur);
      cur = '';
    } else {
      cur += c;
    }
  }
  out.push(cur);
  return out;
}
