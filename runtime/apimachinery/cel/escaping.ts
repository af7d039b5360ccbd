/**
 * Property names as CEL sees them (k8s.io/apiserver/pkg/cel Escape): names that are
 * CEL keywords become `__name__`; `__`, `.`, `-` and `/` are spelled out
 * (`__underscores__`, `__dot__`, `__dash__`, `__slash__`). Names that cannot be
 * escaped (empty, a leading digit, other characters) are not accessible to rules.
 */

const RESERVED = new Set([
  'true',
  'false',
  'null',
  'in',
  'as',
  'break',
  'const',
  'continue',
  'else',
  'for',
  'function',
  'if',
  'import',
  'let',
  'loop',
  'package',
  'namespace',
  'return',
  'var',
  'void',
  'while',
]);

const SPELLED: Readonly<Record<string, string>> = { __: '__underscores__', '.': '__dot__', '-': '__dash__', '/': '__slash__' };

/** The CEL identifier of a property, or undefined when rules cannot name it. */
export function escapeProperty(name: string): string | undefined {
  if (name === '' || /^[0-9]/.test(name)) return undefined;
  if (RESERVED.has(name)) return `__${name}__`;
  if (!/^[A-Za-z0-9_./-]*$/.test(name)) return undefined;
  return name.replace(/__|[./-]/g, (s) => SPELLED[s]!);
}
