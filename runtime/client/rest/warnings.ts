/** One `Warning` response header value (RFC 7234 §5.5): `299 - "message"`. */
export interface Warning {
  readonly code: number;
  readonly agent: string;
  readonly text: string;
}

/** Called once per warning of every response, watches included (client-go's WarningHandler). */
export type WarningHandler = (warning: Warning) => void;

/** Drops every warning. */
export const noWarnings: WarningHandler = () => {};

/**
 * Prints `Warning: <text>` for code-299 warnings (the ones the apiserver sends), each distinct
 * text once per handler, as kubectl's deduplicating writer does. The memory of printed texts is
 * bounded so a server inventing new texts cannot grow it without end.
 */
export function warningLogger(write: (line: string) => void = (l) => console.warn(l), maxRemembered = 1024): WarningHandler {
  const seen = new Set<string>();
  return ({ code, text }) => {
    if (code !== 299 || text === '' || seen.has(text)) return;
    if (seen.size >= maxRemembered) seen.clear();
    seen.add(text);
    write(`Warning: ${text}`);
  };
}

/**
 * The warnings of a response's `Warning` headers, each header possibly a comma-separated list
 * (net.ParseWarningHeaders). A malformed value ends the parse of its header: what was parsed
 * before it is kept, the rest dropped.
 */
export function parseWarningHeaders(values: readonly string[]): Warning[] {
  const out: Warning[] = [];
  for (const v of values) parseWarningHeader(v, out);
  return out;
}

function parseWarningHeader(value: string, out: Warning[]): void {
  let i = 0;
  const skipSpaces = (): void => {
    while (value[i] === ' ' || value[i] === '\t') i++;
  };
  while (i < value.length) {
    skipSpaces();
    const code = /^(\d{3}) /.exec(value.slice(i, i + 4));
    if (code === null) return;
    i += 4;
    const agentEnd = value.indexOf(' ', i);
    if (agentEnd <= i) return;
    const agent = value.slice(i, agentEnd);
    i = agentEnd + 1;
    const text = readQuoted();
    if (text === undefined) return;
    skipSpaces();
    if (value[i] === '"' && readQuoted() === undefined) return; // an optional warn-date
    skipSpaces();
    if (i < value.length && value[i] !== ',') return;
    i++;
    out.push({ code: Number(code[1]), agent, text });
  }

  function readQuoted(): string | undefined {
    if (value[i] !== '"') return undefined;
    let s = '';
    for (i++; i < value.length; i++) {
      const ch = value[i];
      if (ch === '\\' && i + 1 < value.length) s += value[++i];
      else if (ch === '"') {
        i++;
        return s;
      } else s += ch;
    }
    return undefined;
  }
}
