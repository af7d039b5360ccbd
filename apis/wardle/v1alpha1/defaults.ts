import type { Flunder } from './types.js';

/**
 * SetDefaults_FlunderSpec of sample-apiserver: a reference without a type
 * refers to a Flunder. Runs after the schema's `@default` values, on objects
 * decoded from requests in this version; mutates in place.
 */
export function setFlunderDefaults(obj: Flunder): void {
  if (obj.spec?.reference !== undefined && obj.spec.referenceType === undefined) {
    obj.spec.referenceType = 'Flunder';
  }
}
