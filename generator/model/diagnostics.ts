import type { SourceLocation } from './types.js';

/** One problem in the API definitions, reported as `file:line:col: message` (`file:line:` when the column is unknown). */
export interface Diagnostic {
  readonly location: SourceLocation | undefined;
  readonly message: string;
}

export function formatDiagnostic(d: Diagnostic): string {
  if (d.location === undefined) return d.message;
  const { file, line, column } = d.location;
  return `${file}:${line}${column === undefined ? '' : `:${column}`}: ${d.message}`;
}

/**
 * Thrown when the API definitions are invalid. Carries every diagnostic
 * found, so one run reports all problems instead of the first.
 */
export class CodegenError extends Error {
  constructor(readonly diagnostics: readonly Diagnostic[]) {
    super(diagnostics.map(formatDiagnostic).join('\n'));
    this.name = 'CodegenError';
  }
}

/** Collects diagnostics while a phase runs; `throwIfAny` ends the phase. */
export class DiagnosticSink {
  private readonly items: Diagnostic[] = [];

  /** Records a problem; the same message at the same place (a type reached from several kinds) is kept once. */
  error(location: SourceLocation | undefined, message: string): void {
    const seen = this.items.some((d) => d.message === message && d.location?.file === location?.file && d.location?.line === location?.line && d.location?.column === location?.column);
    if (!seen) this.items.push({ location, message });
  }

  get count(): number {
    return this.items.length;
  }

  throwIfAny(): void {
    if (this.items.length === 0) return;
    const sorted = [...this.items].sort(
      (a, b) => (a.location?.file ?? '').localeCompare(b.location?.file ?? '') || (a.location?.line ?? 0) - (b.location?.line ?? 0) || (a.location?.column ?? 0) - (b.location?.column ?? 0),
    );
    throw new CodegenError(sorted);
  }
}
