import type { CustomResourceValidation, JSONSchemaProps } from '../../../apis/apiextensions/v1/types.js';
import type { FieldError } from '../../apimachinery/validation/field.js';
import { SchemaValidator } from '../../apimachinery/validation/schema-validator.js';
import { validateDefaults } from './defaults.js';
import { child, forbidden, invalid, invalidGo } from './errors.js';
import { validateOpenAPISchema } from './openapi.js';
import { validateStructural } from './structural.js';

/**
 * validateCustomResourceDefinitionValidation: one openAPIV3Schema of a CRD, checked as kube
 * checks it (root keywords with a status subresource, structural, defaults, OpenAPI
 * restrictions and CEL rules, an ajv validator that compiles).
 */

/** The Go field names kube lets the root use when status is validated on its own. */
const ALLOWED_AT_ROOT_WITH_STATUS = [
  'Description',
  'Type',
  'Format',
  'Title',
  'Maximum',
  'ExclusiveMaximum',
  'Minimum',
  'ExclusiveMinimum',
  'MaxLength',
  'MinLength',
  'Pattern',
  'MaxItems',
  'MinItems',
  'UniqueItems',
  'MultipleOf',
  'Required',
  'Items',
  'Properties',
  'ExternalDocs',
  'Example',
  'XPreserveUnknownFields',
  'XValidations',
];
/** JSON keys of JSONSchemaProps and the Go field names kube reports. */
const GO_FIELD: Readonly<Record<string, string>> = {
  id: 'ID',
  $schema: 'Schema',
  $ref: 'Ref',
  description: 'Description',
  type: 'Type',
  format: 'Format',
  title: 'Title',
  default: 'Default',
  maximum: 'Maximum',
  exclusiveMaximum: 'ExclusiveMaximum',
  minimum: 'Minimum',
  exclusiveMinimum: 'ExclusiveMinimum',
  maxLength: 'MaxLength',
  minLength: 'MinLength',
  pattern: 'Pattern',
  maxItems: 'MaxItems',
  minItems: 'MinItems',
  uniqueItems: 'UniqueItems',
  multipleOf: 'MultipleOf',
  enum: 'Enum',
  maxProperties: 'MaxProperties',
  minProperties: 'MinProperties',
  required: 'Required',
  items: 'Items',
  allOf: 'AllOf',
  oneOf: 'OneOf',
  anyOf: 'AnyOf',
  not: 'Not',
  properties: 'Properties',
  additionalProperties: 'AdditionalProperties',
  patternProperties: 'PatternProperties',
  dependencies: 'Dependencies',
  additionalItems: 'AdditionalItems',
  definitions: 'Definitions',
  externalDocs: 'ExternalDocs',
  example: 'Example',
  nullable: 'Nullable',
  'x-kubernetes-preserve-unknown-fields': 'XPreserveUnknownFields',
  'x-kubernetes-embedded-resource': 'XEmbeddedResource',
  'x-kubernetes-int-or-string': 'XIntOrString',
  'x-kubernetes-list-map-keys': 'XListMapKeys',
  'x-kubernetes-list-type': 'XListType',
  'x-kubernetes-map-type': 'XMapType',
  'x-kubernetes-validations': 'XValidations',
};

/** Compiles schemas to check that a validator can be built (ajv), as kube builds one. */
const probe = new SchemaValidator();

/** validateCustomResourceDefinitionValidation: one openAPIV3Schema. */
export function validateValidation(validation: CustomResourceValidation | undefined, statusEnabled: boolean, path: string): FieldError[] {
  const schema = validation?.openAPIV3Schema;
  if (schema === undefined) return [];
  const errs: FieldError[] = [];
  const schemaPath = child(path, 'openAPIV3Schema');
  if (statusEnabled) errs.push(...rootWithStatus(schema, schemaPath));
  if (schema.nullable === true) errs.push(forbidden(child(path, 'openAPIV3Schema.nullable'), 'nullable cannot be true at the root'));
  const structural = validateStructural(schema, schemaPath);
  let compileCEL = false;
  if (structural.length > 0) errs.push(...structural);
  else {
    const defaults = validateDefaults(schema, schemaPath, probe);
    if (defaults.length > 0) errs.push(...defaults);
    else compileCEL = true;
  }
  errs.push(...validateOpenAPISchema(schema, schemaPath, compileCEL));
  if (errs.length === 0) {
    try {
      probe.validate(schema, {});
    } catch (err) {
      errs.push(invalid(path, '', `error building validator: ${(err as Error).message}`));
    }
  }
  return errs;
}

/** With a status subresource, the root may only use the keywords that keep status's validation when status is validated alone. */
function rootWithStatus(schema: JSONSchemaProps, path: string): FieldError[] {
  for (const [k, value] of Object.entries(schema)) {
    if (isZero(value)) continue;
    const goName = GO_FIELD[k] ?? k;
    if (goName === 'Type') {
      if (schema.type !== 'object') return [invalid(`${path}.type`, schema.type, 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled')];
      continue;
    }
    if (!ALLOWED_AT_ROOT_WITH_STATUS.includes(goName)) {
      return [invalidGo(path, JSON.stringify(schema), `only [${ALLOWED_AT_ROOT_WITH_STATUS.join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`)];
    }
  }
  return [];
}

function isZero(v: unknown): boolean {
  if (v === undefined || v === null || v === false || v === 0 || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v).length === 0;
}
