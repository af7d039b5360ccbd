import { stringify } from 'yaml';
import { HEADER_TEXT } from './header.js';
import { sortKeys } from './json.js';

/**
 * YAML as controller-gen writes CRDs: a `---` document, keys sorted, no line
 * folding (long CEL rules and patterns stay on one line).
 */
export function printYAML(value: unknown): string {
  const body = stringify(sortKeys(value), { lineWidth: 0, indent: 2, sortMapEntries: false, aliasDuplicateObjects: false });
  return `# ${HEADER_TEXT}\n---\n${body}`;
}
