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
