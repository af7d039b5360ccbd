import { isDeepStrictEqual } from 'node:util';
import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/types.js';
import { celValidator } from '../../apimachinery/cel/index.js';
import { prune } from '../../apimachinery/schema/index.js';
import type { FieldError } from '../../apimachinery/validation/field.js';
import type { SchemaValidator } from '../../apimachinery/validation/schema-validator.js';
import { child, invalid, key } from './errors.js';

/**
 * structuraldefaulting.ValidateDefaults: every `default` (outside metadata) must already be
 * pruned (no fields its schema does not know) and valid against its own schema and rules, so
 * defaulting can never produce an invalid object. Paths of the errors run through `.default`.
 */
export function validateDefaults(schema: JSONSchemaProps, path: string, validator: SchemaValidator): FieldError[] {
  return walk(schema, path, validator, false);
}

function walk(s: JSONSchemaProps, path: string, validator: SchemaValidator, insideMeta: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  if (embedded) insideMeta = false;
  if (s.default !== undefined && s.default !== null && !insideMeta) {
    const at = child(path, 'default');
    const pruned = structuredClone(s.default);
    prune(pruned, s, { isResourceRoot: embedded });
    if (!isDeepStrictEqual(pruned, s.default)) errs.push(invalid(at, s.default, 'must not have unknown fields'));
    const schemaErrs = validator.validate(s, s.default).map((e) => rebase(e, at));
    if (schemaErrs.length > 0) errs.push(...schemaErrs);
    else {
      errs.push(...celValidator.validate(s, s.default, s.default, { isResourceRoot: embedded }).map((e) => rebase(e, at)));
    }
  }
  if (s.items !== undefined && !Array.isArray(s.items)) errs.push(...walk(s.items, child(path, 'items'), validator, insideMeta));
  for (const [k, p] of Object.entries(s.properties ?? {})) {
    const meta = insideMeta || (embedded && (k === 'metadata' || k === 'apiVersion' || k === 'kind'));
    errs.push(...walk(p, key(child(path, 'properties'), k), validator, meta));
  }
  return errs;
}

/**
 * A field error of a value validated on its own, as if the value sat at `at`: the field path runs
 * through `at`, while the message keeps the path kube-openapi gives it, relative to the default
 * (its validator's root path is empty: ` in body must be of type integer`, `a in body …`).
 */
function rebase(e: FieldError, at: string): FieldError {
  const rel = e.field === '<nil>' ? '' : e.field;
  const field = rel === '' ? at : rel.startsWith('[') ? `${at}${rel}` : `${at}.${rel}`;
  const detail = rel === '' ? e.detail.replace('<root> in body', ' in body') : e.detail;
  return { ...e, field, detail };
}
