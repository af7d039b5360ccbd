/**
 * A built-in kind is validated by kube with its Go validation functions alone: no OpenAPI schema,
 * no declared rules. Where a kind's strategy validates it as kube's Go functions do, completely,
 * its validate function is marked so, and the request pipeline then runs neither its generated
 * schema's checks (required, enum, minLength…) nor its declared rules on it: their errors would
 * stand in front of kube's own (and word them differently). Kinds whose strategies do not cover
 * everything keep the schema's checks as their validation.
 */
const GO_VALIDATION: unique symbol = Symbol.for('k8s.io/go-validation');

type Marked = { [GO_VALIDATION]?: true };

/** Marks `fn` (a strategy's validate) as the kind's complete validation, as kube's Go functions. */
export function markGoValidation<F extends object>(fn: F): F {
  (fn as Marked)[GO_VALIDATION] = true;
  return fn;
}

/** Whether `fn` is marked by markGoValidation. */
export function isGoValidation(fn: unknown): boolean {
  return typeof fn === 'function' && (fn as Marked)[GO_VALIDATION] === true;
}
