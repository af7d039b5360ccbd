import { parseMediaType, splitOutsideQuotes } from './mediatype.js';

/** One clause of an Accept header (goautoneg.Accept): `q` is taken out of the parameters. */
export interface AcceptClause {
  readonly type: string;
  readonly subtype: string;
  readonly q: number;
  readonly params: Readonly<Record<string, string>>;
}

const ANY: AcceptClause = Object.freeze({ type: '*', subtype: '*', q: 1, params: Object.freeze({}) });

/**
 * Parses an Accept header into clauses ordered as goautoneg orders them: higher q first, then
 * concrete types before `*` ones; otherwise the client's order is kept. Malformed clauses and
 * clauses with q=0 are dropped. A missing or blank header accepts anything (`*\/*`). The one
 * Accept parser of the server: resource negotiation, discovery and OpenAPI all use it.
 */
export function parseAccept(header: string | readonly string[] | undefined): AcceptClause[] {
  const text = typeof header === 'string' ? header : (header ?? []).join(',');
  if (text.trim() === '') return [ANY];
  const clauses: AcceptClause[] = [];
  for (const part of splitOutsideQuotes(text, ',')) {
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

/** Whether the clause's media range covers `type/subtype`. */
export function clauseMatches(clause: AcceptClause, type: string, subtype: string): boolean {
  return (clause.type === '*' || clause.type === type) && (clause.subtype === '*' || clause.subtype === subtype);
}
