/**
 * Strict-decoding wording (runtime.NewStrictDecodingError, sigs.k8s.io/json):
 * the decoders here return bare field paths; these helpers turn them into
 * the messages kube-apiserver sends as warnings or in a 400/422.
 */

/** `duplicate field "metadata.name"` for each path. */
export function duplicateFieldErrors(paths: readonly string[]): string[] {
  return paths.map((p) => `duplicate field ${JSON.stringify(p)}`);
}

/** `unknown field "spec.foo"` for each path. */
export function unknownFieldErrors(paths: readonly string[]): string[] {
  return paths.map((p) => `unknown field ${JSON.stringify(p)}`);
}

/** `strict decoding error: unknown field "spec.foo", duplicate field "metadata.name"`. */
export function strictDecodingErrorMessage(errors: readonly string[]): string {
  return `strict decoding error: ${errors.join(', ')}`;
}

/**
 * go-yaml's strict error for YAML bodies (sigs.k8s.io/yaml YAMLToJSONStrict): `yaml: unmarshal
 * errors:\n  line 7: key "image" already set in map` for the lines of DecodedBody.yamlDuplicateKeys.
 * kube puts it in a strict decoding error as one error; as warnings, kube's handlers split it
 * back into its lines (parseYAMLWarnings), each a warning of its own.
 */
export function yamlUnmarshalErrors(lines: readonly string[]): string {
  return `yaml: unmarshal errors:\n${lines.map((l) => `  ${l}`).join('\n')}`;
}

/**
 * The strict decoding problems of a decoded create/update body as kube reports them: for JSON a
 * `duplicate field "x"` error each (sigs.k8s.io/json), as errors and as warnings alike; for YAML
 * one error, go-yaml's `yaml: unmarshal errors:\n  line 7: …` (YAMLToJSONStrict; the converted
 * JSON then has no repeats), which as warnings is one warning per line (parseYAMLWarnings).
 */
export function bodyStrictErrors(decoded: { readonly duplicateFields: readonly string[]; readonly yamlDuplicateKeys?: readonly string[] }): {
  readonly errors: string[];
  readonly warnings: string[];
} {
  if (decoded.yamlDuplicateKeys !== undefined) {
    const lines = decoded.yamlDuplicateKeys;
    return lines.length === 0 ? { errors: [], warnings: [] } : { errors: [yamlUnmarshalErrors(lines)], warnings: [...lines] };
  }
  const errors = duplicateFieldErrors(decoded.duplicateFields);
  return { errors, warnings: [...errors] };
}
