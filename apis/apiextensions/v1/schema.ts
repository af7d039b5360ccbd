import type { int64 } from '../../meta/v1/types.js';

/**
 * JSONSchemaProps is a JSON-Schema following Specification Draft 4, as
 * restricted and extended for CustomResourceDefinitions (structural schemas,
 * `x-kubernetes-*` extensions).
 */
export interface JSONSchemaProps {
  id?: string;
  $schema?: JSONSchemaURL;
  $ref?: string;
  description?: string;
  type?: string;
  /** A format such as int32, int64, date-time, byte, uri, email, uuid, hostname, ipv4 or cidr. */
  format?: string;
  title?: string;
  /**
   * Default value, applied by the server when the field is absent.
   *
   * @preserveUnknownFields
   */
  default?: unknown;
  maximum?: number;
  exclusiveMaximum?: boolean;
  minimum?: number;
  exclusiveMinimum?: boolean;
  maxLength?: int64;
  minLength?: int64;
  pattern?: string;
  maxItems?: int64;
  minItems?: int64;
  uniqueItems?: boolean;
  multipleOf?: number;
  /**
   * @listType atomic
   * @preserveUnknownFields
   */
  enum?: unknown[];
  maxProperties?: int64;
  minProperties?: int64;
  /** @listType atomic */
  required?: string[];
  /** A schema, or (rarely) a list of schemas; only a single schema is structural. */
  items?: JSONSchemaPropsOrArray;
  /**
   * @listType atomic
   * @preserveUnknownFields
   */
  allOf?: JSONSchemaProps[];
  /**
   * @listType atomic
   * @preserveUnknownFields
   */
  oneOf?: JSONSchemaProps[];
  /**
   * @listType atomic
   * @preserveUnknownFields
   */
  anyOf?: JSONSchemaProps[];
  /** @preserveUnknownFields */
  not?: JSONSchemaProps;
  /** @preserveUnknownFields */
  properties?: Record<string, JSONSchemaProps>;
  additionalProperties?: JSONSchemaPropsOrBool;
  /** @preserveUnknownFields */
  patternProperties?: Record<string, JSONSchemaProps>;
  dependencies?: Record<string, JSONSchemaPropsOrStringArray>;
  additionalItems?: JSONSchemaPropsOrBool;
  /** @preserveUnknownFields */
  definitions?: Record<string, JSONSchemaProps>;
  externalDocumentation?: ExternalDocumentation;
  /** @preserveUnknownFields */
  example?: unknown;
  nullable?: boolean;
  /** Keep fields the schema does not specify instead of pruning them. */
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  /** The value is a whole object with apiVersion, kind and metadata. */
  'x-kubernetes-embedded-resource'?: boolean;
  /** The value is an integer or a string (intstr.IntOrString). */
  'x-kubernetes-int-or-string'?: boolean;
  /** Keys that identify list items of a list-type `map`. */
  'x-kubernetes-list-map-keys'?: string[];
  /** @enum atomic;set;map */
  'x-kubernetes-list-type'?: string;
  /** @enum granular;atomic */
  'x-kubernetes-map-type'?: string;
  /**
   * CEL validation rules.
   *
   * @listType map
   * @listMapKey rule
   */
  'x-kubernetes-validations'?: ValidationRules;
}

/**
 * Either one schema or a list of schemas (JSON Schema draft 4 `items`).
 *
 * @preserveUnknownFields
 */
export type JSONSchemaPropsOrArray = JSONSchemaProps | JSONSchemaProps[];

/**
 * Either a schema or a boolean (for additionalProperties and additionalItems).
 *
 * @preserveUnknownFields
 */
export type JSONSchemaPropsOrBool = JSONSchemaProps | boolean;

/**
 * Either a schema or a list of property names (for dependencies).
 *
 * @preserveUnknownFields
 */
export type JSONSchemaPropsOrStringArray = JSONSchemaProps | string[];

export interface ExternalDocumentation {
  description?: string;
  url?: string;
}

// Named Go types of JSONSchemaProps' fields (line comments, as in types.ts).

// The URL of a JSON schema's meta-schema (`$schema`).
export type JSONSchemaURL = string;

// A schema's CEL validation rules.
export type ValidationRules = ValidationRule[];

// The reason a validation rule's failure is reported with (a field.ErrorType's name).
export type FieldValueErrorReason = string;

/** A CEL validation rule evaluated against the value at the schema's position. */
export interface ValidationRule {
  /** The CEL expression; `self` is the value, `oldSelf` the previous one in transition rules. */
  rule: string;
  message?: string;
  /** A CEL expression producing the message; takes precedence over message. */
  messageExpression?: string;
  /** @enum FieldValueInvalid;FieldValueForbidden;FieldValueRequired;FieldValueDuplicate */
  reason?: FieldValueErrorReason;
  /** The JSON path, relative to the value, that the error is reported at. */
  fieldPath?: string;
  /** Whether a transition rule also runs on create, with oldSelf absent. */
  optionalOldSelf?: boolean;
}
