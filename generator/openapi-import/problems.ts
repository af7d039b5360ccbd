/** Something in a document the import cannot represent faithfully: where it is, and why. */
export interface ImportProblem {
  /** Project-relative path of the document. */
  readonly file: string;
  /** JSON pointer (RFC 6901) into the document. */
  readonly pointer: string;
  readonly message: string;
}

/** Every problem of one import, reported together (`file#pointer: message`, one a line). */
export class OpenAPIImportError extends Error {
  constructor(readonly problems: readonly ImportProblem[]) {
    super(problems.map(formatProblem).join('\n'));
    this.name = 'OpenAPIImportError';
  }
}

export function formatProblem(p: ImportProblem): string {
  return `${p.file}#${p.pointer}: ${p.message}`;
}

/** A JSON pointer from reference tokens: `~` and `/` escaped as RFC 6901 says. */
export function pointer(...tokens: readonly (string | number)[]): string {
  return tokens.map((t) => `/${String(t).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** Collects problems while a document is read; `throwIfAny` ends the import when there are some. */
export class Problems {
  readonly list: ImportProblem[] = [];

  add(file: string, at: string, message: string): void {
    this.list.push({ file, pointer: at, message });
  }

  throwIfAny(): void {
    if (this.list.length > 0) throw new OpenAPIImportError(this.list);
  }
}
