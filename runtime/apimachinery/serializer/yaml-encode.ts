import { Schema, stringify, type ScalarTag } from 'yaml';

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
 * The tags a plain string must not match to stay a string for every reader: YAML 1.2 (the
 * output's own schema), YAML 1.1 (`y`, `n`, `on`, `off`, `yes`, `no`, `~`, octal `012`,
 * sexagesimal `1:20`, dates, `.inf`, `<<`) and go-yaml v2's looser numbers. A string that any of
 * them would read as another type is written quoted, as go-yaml's encoder does.
 */
const COMPAT_TAGS = [...new Schema({ schema: 'yaml-1.1' }).tags, GO_YAML_V2_NUMBER, GO_YAML_V2_TIMESTAMP];

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
