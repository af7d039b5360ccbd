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
}

export interface ParsedComment {
  readonly description: string;
  readonly tags: readonly RawTag[];
}

const TAG_LINE = /^@([A-Za-z][\w-]*)(?:\s+(.*))?$/;

/** `comment` is the full `/** … *\/` text; `firstLine` the line it starts on. */
export function parseComment(comment: string, firstLine: number): ParsedComment {
  const body = comment.replace(/^\/\*\*/, '').replace(/\*\/$/, '');
  const lines = body.split('\n').map((l) => l.replace(/^\s*\*? ?/, '').trimEnd());
  const description: string[] = [];
  const tags: { name: string; text: string[]; line: number }[] = [];
  lines.forEach((content, i) => {
    const match = TAG_LINE.exec(content.trim());
    if (match !== null) {
      tags.push({ name: match[1]!, text: match[2] === undefined ? [] : [match[2].trim()], line: firstLine + i });
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
    tags: tags.map((t) => ({ name: t.name, text: t.text.join(' '), line: t.line })),
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
