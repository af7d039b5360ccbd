/** One clause of an Accept header: `type/subtype;k=v;...` with lower-cased parameter names. */
export interface AcceptClause {
  readonly type: string;
  readonly subtype: string;
  readonly params: ReadonlyMap<string, string>;
  readonly q: number;
}

/**
 * The clauses of an Accept header in the order a server should try them: by `q` descending,
 * then concrete types before wildcards, otherwise as sent (goautoneg's order). Clauses with
 * q=0 and malformed ones are dropped. A missing or empty header means `*\/*`.
 */
export function parseAccept(header: string | readonly string[] | undefined): AcceptClause[] {
  const text = Array.isArray(header) ? header.join(',') : (header as string | undefined) ?? '';
  if (text.trim() === '') return [{ type: '*', subtype: '*', params: new Map(), q: 1 }];
  const clauses: AcceptClause[] = [];
  for (const part of text.split(',')) {
    const clause = parseClause(part);
    if (clause !== undefined && clause.q > 0) clauses.push(clause);
  }
  return clauses
    .map((c, i) => ({ c, i }))
    .sort((a, b) => b.c.q - a.c.q || specificity(b.c) - specificity(a.c) || a.i - b.i)
    .map(({ c }) => c);
}

function parseClause(part: string): AcceptClause | undefined {
  const [range, ...rawParams] = part.split(';');
  const [type, subtype, extra] = (range ?? '').trim().toLowerCase().split('/');
  if (!type || !subtype || extra !== undefined) return undefined;
  const params = new Map<string, string>();
  let q = 1;
  for (const raw of rawParams) {
    const eq = raw.indexOf('=');
    if (eq < 0) continue;
    const key = raw.slice(0, eq).trim().toLowerCase();
    const value = raw.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
    if (key === 'q') {
      const n = Number(value);
      q = Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 1;
    } else params.set(key, value);
  }
  return { type, subtype, params, q };
}

function specificity(c: AcceptClause): number {
  return (c.type === '*' ? 0 : 2) + (c.subtype === '*' ? 0 : 1);
}

/** Whether the clause's media range covers `type/subtype`. */
export function clauseMatches(clause: AcceptClause, type: string, subtype: string): boolean {
  return (clause.type === '*' || clause.type === type) && (clause.subtype === '*' || clause.subtype === subtype);
}
