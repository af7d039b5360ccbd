import { IndentationText, NewLineKind, Project, QuoteKind, type SourceFileStructure, type WriterFunction } from 'ts-morph';
import { compareCodePoints } from './json.js';
import { HEADER_TEXT } from './header.js';

const project = new Project({
  useInMemoryFileSystem: true,
  manipulationSettings: {
    indentationText: IndentationText.TwoSpaces,
    newLineKind: NewLineKind.LineFeed,
    quoteKind: QuoteKind.Single,
    useTrailingCommas: true,
  },
});

let counter = 0;

/** Prints a source file from its ts-morph structure, with the DO-NOT-EDIT header. */
export function printTypeScript(structure: SourceFileStructure): string {
  const file = project.createSourceFile(`/print-${counter++}.ts`, structure, { overwrite: true });
  const text = file.getFullText();
  project.removeSourceFile(file);
  return `// ${HEADER_TEXT}\n\n${text.endsWith('\n') ? text : `${text}\n`}`;
}

/**
 * Writes a JSON-compatible value as a TypeScript literal: keys sorted,
 * identifiers unquoted, one property per line. Used for the data objects of
 * generated registries.
 */
export function literal(value: unknown): WriterFunction {
  return (writer) => {
    const write = (v: unknown): void => {
      if (v === null || typeof v !== 'object') {
        writer.write(v === undefined ? 'undefined' : JSON.stringify(v));
        return;
      }
      if (v instanceof RawCode) {
        writer.write(v.code);
        return;
      }
      if (Array.isArray(v)) {
        if (v.length === 0) {
          writer.write('[]');
          return;
        }
        writer
          .write('[')
          .indent(() => {
            for (const item of v) {
              write(item);
              writer.write(',').newLine();
            }
          })
          .write(']');
        return;
      }
      const entries = Object.entries(v)
        .filter(([, x]) => x !== undefined)
        .sort(([a], [b]) => compareCodePoints(a, b));
      if (entries.length === 0) {
        writer.write('{}');
        return;
      }
      writer
        .write('{')
        .indent(() => {
          for (const [key, item] of entries) {
            writer.write(/^[A-Za-z_$][\w$]*$/.test(key) ? key : `'${key}'`).write(': ');
            write(item);
            writer.write(',').newLine();
          }
        })
        .write('}');
    };
    write(value);
  };
}

/** An identifier or expression placed verbatim inside a `literal` (an imported binding). */
export class RawCode {
  constructor(readonly code: string) {}
}

/**
 * `export const name[: type] = <literal>[ satisfies T];` as one top-level
 * statement. Written as a statement rather than a variable initializer
 * because ts-morph indents initializer continuation lines a level deeper.
 */
export function exportConst(c: { readonly name: string; readonly doc: string; readonly type?: string; readonly value: unknown; readonly satisfies?: string }): WriterFunction {
  return (writer) => {
    writer.blankLineIfLastNot().writeLine(`/** ${c.doc} */`);
    writer.write(`export const ${c.name}${c.type === undefined ? '' : `: ${c.type}`} = `);
    literal(c.value)(writer);
    writer.write(c.satisfies === undefined ? ';' : ` satisfies ${c.satisfies};`).newLine();
  };
}
