import type { SourceLocation } from './types.js';

/** One problem in the API definitions, reported as `file:line: message`. */
export interface Diagnostic {
  readonly location: SourceLocation | undefined;
  readonly message: string;
}

export function formatDiagnostic(d: Diagnostic): string {
  return d.location === undefined ? d.message : `${d.location.file}:${d.location.line}: ${d.message}`;
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

  error(location: SourceLocation | undefined, message: string): void {
    this.items.push({ location, message });
  }

  get count(): number {
    return this.items.length;
  }

  throwIfAny(): void {
    if (this.items.length === 0) return;
    const sorted = [...this.items].sort((a, b) =>
      (a.location?.file ?? '').localeCompare(b.location?.file ?? '') || (a.location?.line ?? 0) - (b.location?.line ?? 0));
    throw new CodegenError(sorted);
  }
}
