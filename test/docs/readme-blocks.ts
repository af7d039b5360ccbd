// The code blocks of README.md that test/docs/readme.test.ts runs, read from the markdown as
// written. A block's info string says what it is; the test runs nothing it has to guess.
//
//   ```ts title=<file>   written to <file> (relative to the repository root) and type-checked
//   ```sh                run to completion in the tour's one shell session
//   ```sh server         `npm start`: played by a control plane the test starts (see the test)
//   ```sh background     started in the session and left running (a controller), stopped at the end
//   ```text output       lines the previous sh block must print, in this order

export type Block =
  | { readonly kind: 'file'; readonly line: number; readonly path: string; readonly code: string }
  | { readonly kind: 'sh' | 'server' | 'background'; readonly line: number; readonly code: string }
  | { readonly kind: 'output'; readonly line: number; readonly code: string };

/** The markdown of the `## <title>` section (up to the next `## `), with the line its text starts at. */
export function section(markdown: string, title: string): { readonly text: string; readonly line: number } {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l === `## ${title}`);
  if (start < 0) throw new Error(`README.md has no section "## ${title}"`);
  const end = lines.findIndex((l, i) => i > start && l.startsWith('## '));
  return { text: lines.slice(start, end < 0 ? undefined : end).join('\n'), line: start + 1 };
}

/** The fenced blocks of `text` (its first line being README line `firstLine`); an info string not listed above is an error. */
export function blocks(text: string, firstLine: number): Block[] {
  const out: Block[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(.*)$/.exec(lines[i] ?? '');
    if (open === null) continue;
    const info = (open[1] ?? '').trim();
    const line = firstLine + i;
    const close = lines.findIndex((l, j) => j > i && l === '```');
    if (close < 0) throw new Error(`README.md:${line}: the block is never closed`);
    const code = lines.slice(i + 1, close).join('\n') + '\n';
    i = close;
    const title = /^ts title=(\S+)$/.exec(info);
    if (title !== null) out.push({ kind: 'file', line, path: title[1] ?? '', code });
    else if (info === 'sh') out.push({ kind: 'sh', line, code });
    else if (info === 'sh server') out.push({ kind: 'server', line, code });
    else if (info === 'sh background') out.push({ kind: 'background', line, code });
    else if (info === 'text output') out.push({ kind: 'output', line, code });
    else throw new Error(`README.md:${line}: the doc test cannot run a block with info string ${JSON.stringify(info)} (ts title=<file>, sh, sh server, sh background or text output)`);
  }
  return out;
}

/** Whether `expected`'s lines (right-trimmed) appear in `actual`'s in the same order, other lines between them allowed. */
export function printsInOrder(actual: string, expected: string): boolean {
  const have = actual.split('\n').map((l) => l.trimEnd());
  let at = 0;
  for (const want of expected
    .trimEnd()
    .split('\n')
    .map((l) => l.trimEnd())) {
    const found = have.indexOf(want, at);
    if (found < 0) return false;
    at = found + 1;
  }
  return true;
}
