import { Schema, stringify, type ScalarTag } from 'yaml';

/**
 * Plain scalars that go-yaml v2 (kubectl's and client-go's YAML reader, through sigs.k8s.io/yaml)
 * reads as numbers where YAML 1.1 would not: it drops every `_` before trying Go's ParseInt with
 * base 0 (`0X1F`, `0B1`, `0O17`, `1__0`, `-_1`) and a float pattern (`1e3_`). Generous on
 * purpose: a string quoted needlessly reads the same, one left plain may not.
 *
 * The test drops the underscores first, as go-yaml does, and then matches a pattern whose
 * quantifiers never compete for the same characters: a pattern that let `_*` and `[0-9_]*`
 * share underscores backtracked quadratically, and every string of a YAML response goes through
 * this test (80 kB of `-___…1___…x` took 3.5 s). `yaml` calls only `test` of a compat tag's
 * RegExp, so the check is that method.
 */
const GO_YAML_V2_NUMBER_PATTERN = /^[-+]?(?:0[bBoOxX][0-9a-fA-F]*|[0-9]*(?:\.[0-9]*)?(?:[eE][-+]*[0-9]*)?)$/;

class GoYAMLNumberTest extends RegExp {
  constructor() {
    super(GO_YAML_V2_NUMBER_PATTERN.source);
  }

  override test(source: string): boolean {
    if (!/^[-+.0-9]/.test(source) || !/[0-9]/.test(source)) return false;
    return GO_YAML_V2_NUMBER_PATTERN.test(source.replaceAll('_', ''));
  }
}

const GO_YAML_V2_NUMBER: ScalarTag = {
  tag: 'tag:yaml.org,2002:float',
  default: true,
  test: new GoYAMLNumberTest(),
  resolve: (source) => source,
};
const GO_YAML_V2_TIMESTAMP: ScalarTag = {
  tag: 'tag:yaml.org,2002:timestamp',
  default: true,
  test: /^[0-9]{4}-/,
  resolve: (source) => source,
};

/**
 * The tags a plain string must not match to stay a string for every reader: YAML 1.2 (the
 * output's own schema), YAML 1.1 (`y`, `n`, `on`, `off`, `yes`, `no`, `~`, octal `012`,
 * sexagesimal `1:20`, dates, `.inf`, `<<`) and go-yaml v2's looser numbers. A string that any of
 * them would read as another type is written quoted, as go-yaml's encoder does.
 */
class DotIsAString extends RegExp {
  override test(source: string): boolean {
    return source !== '.' && super.test(source);
  }
}

const COMPAT_TAGS = [...new Schema({ schema: 'yaml-1.1' }).tags.map(withDotAsString), GO_YAML_V2_NUMBER, GO_YAML_V2_TIMESTAMP];

/**
 * YAML 1.1's float pattern matches a lone `.`, which the readers of our responses (go-yaml's
 * ParseFloat, PyYAML, js-yaml) all read as a string: written plain as go-yaml writes it, so a
 * fieldsV1 member key reads `.: {}` as in kube-apiserver's YAML.
 */
function withDotAsString<T>(tag: T): T {
  const test = (tag as { test?: unknown }).test;
  if (!(test instanceof RegExp) || (tag as { tag?: unknown }).tag !== 'tag:yaml.org,2002:float' || !test.test('.')) return tag;
  return { ...tag, test: new DotIsAString(test) };
}

/** Options of every YAML document this project writes for Go readers (manifests, API responses). */
export const GO_YAML_OPTIONS = {
  lineWidth: 0,
  indent: 2,
  sortMapEntries: false,
  aliasDuplicateObjects: false,
  compat: COMPAT_TAGS,
} as const;

/** JSON values as YAML that go-yaml v2 and YAML 1.1 read back as the same values (strings stay strings). */
export function encodeYAML(value: unknown): string {
  return stringify(value, GO_YAML_OPTIONS);
}
