/**
 * cel-go's display of compile issues (common/error.go, common/errors.go, v0.22.0): see errors.ts
 * for what is mapped to it.
 */

/** One error: a code-point offset into the expression (undefined: no location) and its message. */
export interface GoError {
  readonly offset: number | undefined;
  readonly message: string;
}

/** The code-point offset of a UTF-16 index (cel-go's source and ANTLR count code points). */
export function codePointOffset(src: string, index: number): number {
  let n = 0;
  for (let i = 0; i < index && i < src.length; i++) {
    const c = src.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < src.length) {
      const d = src.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n + Math.max(0, index - src.length);
}

/** Errors as cel-go's common.Errors.ToDisplayString prints them (sorted by line, then column). */
export function displayErrors(source: string, errors: readonly GoError[]): string {
  const cps = Array.from(source);
  const lineOffsets: number[] = [];
  cps.forEach((c, i) => {
    if (c === '\n') lineOffsets.push(i + 1);
  });
  lineOffsets.push(cps.length + 1);
  const located = errors.map((e) => {
    if (e.offset === undefined) return { line: -1, column: -1, message: e.message };
    let line = 1;
    for (const o of lineOffsets) {
      if (o > e.offset) break;
      line++;
    }
    const lineStart = line === 1 ? 0 : lineOffsets[line - 2]!;
    return { line, column: e.offset - lineStart, message: e.message };
  });
  located.sort((a, b) => a.line - b.line || a.column - b.column);
  const lineStart = (line: number): number | undefined => (line === 1 ? 0 : line > 1 && line <= lineOffsets.length ? lineOffsets[line - 2] : undefined);
  return located
    .map((e) => {
      let out = `ERROR: <input>:${e.line}:${e.column + 1}: ${e.message}`;
      const start = lineStart(e.line);
      if (start === undefined || cps.length === 0) return out;
      const next = lineStart(e.line + 1);
      const snippet = cps.slice(start, next === undefined ? cps.length : next - 1);
      if (Buffer.byteLength(snippet.join('')) > 16384) return out;
      const wide = (c: string | undefined): boolean => c !== undefined && (c.codePointAt(0)! >= 0x80 || c.length > 1);
      let indicator = '';
      for (let i = 0; i < e.column && i < snippet.length; i++) indicator += wide(snippet[i]) ? '\uff0e' : '.';
      indicator += wide(snippet[e.column]) ? '\uff3e' : '^';
      out += `\n | ${snippet.join('').replace(/\t/g, ' ')}\n | ${indicator}`;
      return out;
    })
    .join('\n');
}
