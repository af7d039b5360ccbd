/**
 * Splits a JSDoc comment into its description and its block tags. Tags are
 * read from the raw comment text rather than from TypeScript's JSDoc nodes,
 * because TypeScript gives some tag names (`@enum`, `@readonly`, `@default`)
 * meanings of its own and would otherwise swallow or reshape their text.
 */
export interface RawTag {
  readonly name: string;
  /** The text after the tag name, continuation lines joined with a space. */
  readonly text: string;
  /** 1-based line in the source file. */
  readonly line: number;
  /** 1-based column of the tag's `@` in the source file. */
  readonly column: number;
}

export interface ParsedComment {
  readonly description: string;
  readonly tags: readonly RawTag[];
}

const TAG_LINE = /^@([A-Za-z][\w-]*)(?:\s+(.*))?$/;

/**
 * `comment` is the full `/** … *\/` text; `firstLine` and `firstColumn` (1-based) where it
 * starts, so each tag knows its own position in the file.
 */
export function parseComment(comment: string, firstLine: number, firstColumn = 1): ParsedComment {
  const rawLines = comment.split('\n');
  const body = comment.replace(/^\/\*\*/, '').replace(/\*\/$/, '');
  const lines = body.split('\n').map((l) => l.replace(/^\s*\*? ?/, '').trimEnd());
  const description: string[] = [];
  const tags: { name: string; text: string[]; line: number; column: number }[] = [];
  lines.forEach((content, i) => {
    const match = TAG_LINE.exec(content.trim());
    if (match !== null) {
      // Later lines of the comment are whole lines of the file; the first starts at firstColumn.
      const at = (rawLines[i] ?? '').indexOf(`@${match[1]!}`) + 1;
      const column = i === 0 ? firstColumn + at - 1 : at;
      tags.push({ name: match[1]!, text: match[2] === undefined ? [] : [match[2].trim()], line: firstLine + i, column });
      return;
    }
    const current = tags.at(-1);
    if (current !== undefined) {
      if (content.trim() !== '') current.text.push(content.trim());
    } else {
      description.push(content);
    }
  });
  return {
    description: normalizeDescription(description),
    tags: tags.map((t) => ({ name: t.name, text: t.text.join(' '), line: t.line, column: t.column })),
  };
}

/** Paragraphs separated by one blank line; lines within a paragraph joined by spaces. */
function normalizeDescription(lines: readonly string[]): string {
  const paragraphs: string[] = [];
  let current: string[] = [];
  for (const line of lines) {
    if (line.trim() === '') {
      if (current.length > 0) paragraphs.push(current.join(' '));
      current = [];
    } else {
      current.push(line.trim());
    }
  }
  if (current.length > 0) paragraphs.push(current.join(' '));
  return paragraphs.join('\n\n');
}
