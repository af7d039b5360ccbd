/**
 * Validation errors of typed operations (typed/helpers.go ValidationError[s]):
 * each names the path where it was found (`.spec.list[name="a"].value`) and
 * the message, worded as SMD's, since kube puts them in its responses.
 */

/** One error: where (SMD's path string, "" at the root) and what. */
export interface ValidationError {
  path: string;
  readonly message: string;
}

/** The text of one error: `path: message`, or the message alone at the root. */
export function validationErrorString(e: ValidationError): string {
  return e.path.length === 0 ? e.message : `${e.path}: ${e.message}`;
}

/**
 * The errors of one operation, thrown by the typed API. Its message is SMD's
 * ValidationErrors.Error(): the error alone, or `errors:` followed by each on
 * its own indented line.
 */
export class ValidationErrors extends Error {
  readonly errors: readonly ValidationError[];

  constructor(errors: readonly ValidationError[]) {
    super(errors.length === 1 ? validationErrorString(errors[0] as ValidationError) : ['errors:', ...errors.map((e) => `  ${validationErrorString(e)}`)].join('\n'));
    this.name = 'ValidationErrors';
    this.errors = errors;
  }
}

/** A list of one error at the root, to be prefixed as the walk unwinds (errorf). */
export function errorf(message: string): ValidationError[] {
  return [{ path: '', message }];
}

/**
 * Prefixes the paths of `errs` with what `prefix` returns, computed only when
 * there is an error (WithLazyPrefix). Mutates and returns `errs`: the walkers
 * own the lists they build.
 */
export function withLazyPrefix(errs: ValidationError[], prefix: (() => string) | undefined): ValidationError[] {
  if (errs.length === 0 || prefix === undefined) return errs;
  const p = prefix();
  for (const e of errs) e.path = p + e.path;
  return errs;
}

/** Appends `more` to `errs` without spreading (a long list of errors must not exceed the argument limit). */
export function pushAll(errs: ValidationError[], more: readonly ValidationError[]): void {
  for (const e of more) errs.push(e);
}

/** Throws the errors when there are any. */
export function throwIfAny(errs: readonly ValidationError[]): void {
  if (errs.length > 0) throw new ValidationErrors(errs);
}

/**
 * Runs a walk. The walkers recurse once per level of the value: a value
 * nested deeper than the call stack allows (far beyond what request bodies
 * may nest) fails as a ValidationErrors instead of a RangeError.
 */
export function depthGuarded<T>(walk: () => T): T {
  try {
    return walk();
  } catch (err) {
    if (err instanceof RangeError && err.message.includes('call stack')) throw new ValidationErrors(errorf('value is nested too deeply to be processed'));
    throw err;
  }
}
