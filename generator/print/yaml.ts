import { stringify } from 'yaml';
import { GO_YAML_OPTIONS } from '../../runtime/apimachinery/serializer/yaml-encode.js';
import { HEADER_TEXT } from './header.js';
import { sortKeys } from './json.js';

/** Options of every generated YAML document; exported so tests stringify exactly as codegen does. */
export const YAML_OPTIONS = GO_YAML_OPTIONS;

/**
 * YAML as controller-gen writes CRDs: a `---` document, keys sorted, no line folding (long CEL
 * rules and patterns stay on one line), and every string that YAML 1.1 or go-yaml v2 would read
 * as a boolean, null, number or time quoted, so `kubectl apply` gets back the strings written
 * (enum values `y`/`n`, property names `on`/`off`). `comment` (paragraphs of prose, wrapped)
 * follows the generated-file header.
 */
export function printYAML(value: unknown, comment?: string): string {
  const body = stringify(sortKeys(value), YAML_OPTIONS);
  const note =
    comment === undefined
      ? ''
      : `#\n${comment
          .split('\n')
          .flatMap(wrap)
          .map((line) => (line === '' ? '#' : `# ${line}`))
          .join('\n')}\n`;
  return `# ${HEADER_TEXT}\n${note}---\n${body}`;
}

const COMMENT_WIDTH = 98;

/** A paragraph of prose as lines of at most COMMENT_WIDTH characters (a longer word stays whole). */
function wrap(paragraph: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of paragraph.split(' ').filter((w) => w !== '')) {
    if (line !== '' && line.length + 1 + word.length > COMMENT_WIDTH) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line];
}
