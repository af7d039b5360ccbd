import { Set as FieldSet } from '../structuredmerge/fieldpath/index.js';

/**
 * FieldsV1 ↔ field sets (fields.go). FieldsV1 is handled decoded: the JSON object kube stores,
 * whose keys are serialized path elements and whose order the encoder fixes.
 */

/** The field set a FieldsV1 trie describes (FieldsToSet); throws with the fieldpath wording on bad input. */
export function fieldsToSet(fields: unknown): FieldSet {
  return FieldSet.fromFieldsV1(fields);
}

/** The FieldsV1 trie of a field set (SetToFields), keys in structured-merge-diff's order. */
export function setToFields(set: FieldSet): Record<string, unknown> {
  return set.toFieldsV1();
}

/** The FieldsV1 of a set with no paths (EmptyFields): `{}`. */
export function emptyFields(): Record<string, unknown> {
  return setToFields(new FieldSet());
}
