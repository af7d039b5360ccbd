import type { Flunder } from './types.js';

/** As v1alpha1's: a reference without a type refers to a Flunder. Mutates in place. */
export function setFlunderDefaults(obj: Flunder): void {
  const spec = obj.spec;
  if (spec === undefined || spec.referenceType !== undefined) return;
  if (spec.fischerReference !== undefined) spec.referenceType = 'Fischer';
  else if (spec.flunderReference !== undefined) spec.referenceType = 'Flunder';
}
