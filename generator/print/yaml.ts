import { Schema, stringify, type ScalarTag } from 'yaml';
import { HEADER_TEXT } from './header.js';
import { sortKeys } from './json.js';

/**
 * Plain scalars that go-yaml v2 (kubectl's and client-go's YAML reader, through sigs.k8s.io/yaml)
 * reads as numbers where YAML 1.1 would not: it drops every `_` before trying Go's ParseInt with
 * base 0 (`0X1F`, `0B1`, `0O17`, `1__0`, `-_1`) and a float pattern (`1e3_`), and reads anything
 * starting `YYYY-` as a timestamp candidate. Generous on purpose: a string quoted needlessly
 * reads the same, one left plain may not. Only `test` matters, as a `compat` tag.
 */
const GO_YAML_V2_NUMBER: ScalarTag = {
  tag: 'tag:yaml.org,2002:float',
  default: true,
  test: /^(?=[-+.0-9])(?=\D*\d)[-+]?_*(?:0_*[bBoOxX][0-9a-fA-F_]*|[0-9_]*(?:\.[0-9_]*)?(?:[eE][-+_]*[0-9_]*)?)$/,
  resolve: (source) => source,
};
const GO_YAML_V2_TIMESTAMP: ScalarTag = {
  tag: 'tag:yaml.org,2002:timestamp',
  default: true,
  test: /^[0-9]{4}-/,
  resolve: (source) => source,
};

/**
 * The tags a plain string must not match to stay a string for every reader of the manifests:
 * YAML 1.2 (the output's own schema), YAML 1.1 (`y`, `n`, `on`, `off`, `yes`, `no`, `~`, octal
 * `012`, sexagesimal `1:20`, dates, `.inf`, `<<`) and go-yaml v2's looser numbers. A string that
 * any of them would read as another type is written quoted.
 */
const COMPAT_TAGS = [...new Schema({ schema: 'yaml-1.1' }).tags, GO_YAML_V2_NUMBER, GO_YAML_V2_TIMESTAMP];

/** Options of every generated YAML document; exported so tests stringify exactly as codegen does. */
export const YAML_OPTIONS = {
  lineWidth: 0,
  indent: 2,
  sortMapEntries: false,
  aliasDuplicateObjects: false,
  compat: COMPAT_TAGS,
} as const;

/**
 * YAML as controller-gen writes CRDs: a `---` document, keys sorted, no line folding (long CEL
 * rules and patterns stay on one line), and every string that YAML 1.1 or go-yaml v2 would read
 * as a boolean, null, number or time quoted, so `kubectl apply` gets back the strings written
 * (enum values `y`/`n`, property names `on`/`off`). `comment` (paragraphs of prose, wrapped)
 * follows the generated-file header.
 */
export function printYAML(value: unknown, comment?: string): string {
  const body = stringify(sortKeys(value), YAML_OPTIONS);
  const note = comment === undefined ? '' : `#\n${comment.split('\n').flatMap(wrap).map((line) => (line === '' ? '#' : `# ${line}`)).join('\n')}\n`;
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
