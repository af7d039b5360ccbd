/**
 * The marker vocabulary: every JSDoc tag the generator understands, where it
 * may appear and what argument it takes. It mirrors Go's markers
 * (`+genclient`, `+kubebuilder:validation:*`, `+listType`…) so types can be
 * transliterated; see README "Marker reference". Anything not in this table
 * is an error (code-generator's `known-tags-only` lint rule).
 */

/** Where a marker may be written. */
export type MarkerSite =
  /** The leading comment of `apis/<group>/<version>/doc.ts`. */
  | 'package'
  /** An interface that is a served kind (carries `@genclient`). */
  | 'kind'
  /** Any interface or type alias used in a schema. */
  | 'type'
  /** A property of an interface. */
  | 'field';

/** The argument shape of a marker. */
export type MarkerArgs =
  | { readonly kind: 'flag' }
  | { readonly kind: 'string' }
  | { readonly kind: 'number' }
  | { readonly kind: 'integer' }
  /** Any JSON value; a bare word is taken as a string. */
  | { readonly kind: 'json' }
  /** A list separated by `;` or `,` (Go markers use `;`). */
  | { readonly kind: 'list' }
  | { readonly kind: 'oneOf'; readonly values: readonly string[] }
  /**
   * A protobuf field number (1 to 2^29-1, outside the 19000-19999 range protobuf reserves)
   * followed by optional words from `flags`: `@protobuf 9 pointer`.
   */
  | { readonly kind: 'fieldNumber'; readonly flags: readonly string[] }
  /** `key=value` pairs; values may be double-quoted with JSON escapes. */
  | {
      readonly kind: 'keyValues';
      /** Allowed values of a leading bare word (`@subresource scale specpath=…`); absent means none. */
      readonly positional?: readonly string[];
      readonly keys: Readonly<Record<string, KeySpec>>;
    };

export interface KeySpec {
  readonly required: boolean;
  readonly type: 'string' | 'integer' | 'list';
}

export interface MarkerSpec {
  readonly sites: readonly MarkerSite[];
  readonly args: MarkerArgs;
  /** Whether the marker may be given more than once on one declaration. */
  readonly repeatable: boolean;
  /** The Go marker it stands for, for the README and error hints. */
  readonly go: string;
}

const flag = { kind: 'flag' } as const;
const string = { kind: 'string' } as const;
const number = { kind: 'number' } as const;
const integer = { kind: 'integer' } as const;
const json = { kind: 'json' } as const;
const list = { kind: 'list' } as const;
const req = (type: KeySpec['type']): KeySpec => ({ required: true, type });
const opt = (type: KeySpec['type']): KeySpec => ({ required: false, type });

/** The words a `@protobuf` marker may carry after its field number. */
export const PROTOBUF_FLAGS = ['pointer', 'omitzero'] as const;

const schemaSites: readonly MarkerSite[] = ['type', 'field', 'kind'];

function marker<const A extends MarkerArgs>(go: string, sites: readonly MarkerSite[], args: A, repeatable = false): MarkerSpec & { readonly args: A } {
  return { go, sites, args, repeatable };
}

export const VOCABULARY = {
  // Package markers (doc.ts).
  groupName: marker('+groupName', ['package'], string),
  storageVersion: marker('+kubebuilder:storageversion', ['package'], flag),
  hub: marker('internal (hub) package', ['package'], flag),
  deprecatedVersion: marker('+kubebuilder:deprecatedversion', ['package'], { kind: 'keyValues', keys: { warning: opt('string') } }),
  openapiModelPackage: marker('+k8s:openapi-model-package', ['package'], string),

  // Kind markers.
  genclient: marker('+genclient', ['kind'], flag),
  nonNamespaced: marker('+genclient:nonNamespaced', ['kind'], flag),
  onlyVerbs: marker('+genclient:onlyVerbs', ['kind'], list),
  skipVerbs: marker('+genclient:skipVerbs', ['kind'], list),
  readonly: marker('+genclient:readonly', ['kind'], flag),
  resource: marker('+kubebuilder:resource', ['kind'], {
    kind: 'keyValues',
    keys: { path: opt('string'), singular: opt('string'), shortName: opt('list'), categories: opt('list'), scope: opt('string') },
  }),
  subresource: marker(
    '+kubebuilder:subresource',
    ['kind'],
    {
      kind: 'keyValues',
      positional: ['status', 'scale'],
      keys: { specpath: opt('string'), statuspath: opt('string'), selectorpath: opt('string') },
    },
    true,
  ),
  printcolumn: marker(
    '+kubebuilder:printcolumn',
    ['kind'],
    {
      kind: 'keyValues',
      keys: {
        name: req('string'),
        type: req('string'),
        jsonPath: req('string'),
        description: opt('string'),
        format: opt('string'),
        priority: opt('integer'),
      },
    },
    true,
  ),
  selectableField: marker('+kubebuilder:selectablefield', ['kind'], { kind: 'keyValues', keys: { jsonPath: req('string') } }, true),

  // Schema markers: numbers.
  minimum: marker('+kubebuilder:validation:Minimum', schemaSites, number),
  maximum: marker('+kubebuilder:validation:Maximum', schemaSites, number),
  exclusiveMinimum: marker('+kubebuilder:validation:ExclusiveMinimum', schemaSites, flag),
  exclusiveMaximum: marker('+kubebuilder:validation:ExclusiveMaximum', schemaSites, flag),
  multipleOf: marker('+kubebuilder:validation:MultipleOf', schemaSites, number),
  // Strings.
  minLength: marker('+kubebuilder:validation:MinLength', schemaSites, integer),
  maxLength: marker('+kubebuilder:validation:MaxLength', schemaSites, integer),
  pattern: marker('+kubebuilder:validation:Pattern', schemaSites, string),
  format: marker('+kubebuilder:validation:Format', schemaSites, string),
  // Arrays and objects.
  minItems: marker('+kubebuilder:validation:MinItems', schemaSites, integer),
  maxItems: marker('+kubebuilder:validation:MaxItems', schemaSites, integer),
  uniqueItems: marker('+kubebuilder:validation:UniqueItems', schemaSites, flag),
  minProperties: marker('+kubebuilder:validation:MinProperties', schemaSites, integer),
  maxProperties: marker('+kubebuilder:validation:MaxProperties', schemaSites, integer),
  enum: marker('+kubebuilder:validation:Enum', schemaSites, list),
  // Presence and values.
  required: marker('+required', ['field'], flag),
  optional: marker('+optional', ['field'], flag),
  nullable: marker('+nullable', schemaSites, flag),
  default: marker('+default', schemaSites, json),
  example: marker('+kubebuilder:example', schemaSites, json),
  title: marker('+kubebuilder:title', schemaSites, string),
  // Kubernetes extensions.
  listType: marker('+listType', schemaSites, { kind: 'oneOf', values: ['atomic', 'set', 'map'] }),
  listMapKey: marker('+listMapKey', schemaSites, string, true),
  mapType: marker('+mapType', schemaSites, { kind: 'oneOf', values: ['atomic', 'granular'] }),
  structType: marker('+structType', schemaSites, { kind: 'oneOf', values: ['atomic', 'granular'] }),
  intOrString: marker('+kubebuilder:validation:XIntOrString', schemaSites, flag),
  embeddedResource: marker('+kubebuilder:validation:EmbeddedResource', schemaSites, flag),
  preserveUnknownFields: marker('+kubebuilder:pruning:PreserveUnknownFields', schemaSites, flag),
  type: marker('+kubebuilder:validation:Type', schemaSites, { kind: 'oneOf', values: ['integer', 'number', 'string', 'boolean', 'object', 'array'] }),
  schemaless: marker('+kubebuilder:validation:Schemaless', ['field'], flag),
  validation: marker(
    '+kubebuilder:validation:XValidation',
    schemaSites,
    {
      kind: 'keyValues',
      keys: {
        rule: req('string'),
        message: opt('string'),
        messageExpression: opt('string'),
        fieldPath: opt('string'),
        reason: opt('string'),
      },
    },
    true,
  ),
  immutable: marker('+k8s:immutable', schemaSites, flag),
  // Kube's built-in types publish constraints their Go code enforces: published in the OpenAPI,
  // enforced by the kind's strategy (with kube's wording) instead of the schema validator.
  validatedByStrategy: marker('validation in Go code (built-in types)', schemaSites, flag),
  // Strategic merge patch.
  patchStrategy: marker('+patchStrategy', ['field'], { kind: 'oneOf', values: ['merge', 'retainKeys', 'merge,retainKeys'] }),
  patchMergeKey: marker('+patchMergeKey', ['field'], string),
  // Typed decoding: a type alias is a named Go type (`type ServiceType string`), which Go's decoder
  // prints as `<version>.<Name>` in its errors; `@goType` names one that Go declares elsewhere
  // (`types.UID`, from k8s.io/apimachinery/pkg/types), or `string` for a Go type whose own
  // decoder reads a plain string.
  goType: marker('Go type name (type aliases)', ['type'], string),
  // Wire format. `pointer`: the Go field is a pointer (set-but-zero values are kept, unset stays
  // absent); `omitzero`: Go's json tag has omitzero (a zero struct such as a zero Time is left out).
  protobuf: marker('protobuf:"…,<n>,…" struct tag', ['field'], { kind: 'fieldNumber', flags: PROTOBUF_FLAGS }),
} as const satisfies Record<string, MarkerSpec>;

export type MarkerName = keyof typeof VOCABULARY;

/**
 * Standard TSDoc/JSDoc tags that document code and carry no meaning for the
 * generator; they are accepted anywhere and ignored.
 */
export const DOCUMENTATION_TAGS: ReadonlySet<string> = new Set(['deprecated', 'see', 'remarks', 'link', 'packageDocumentation', 'privateRemarks']);

/** The reasons a `@validation` rule may give, as x-kubernetes-validations allows. */
export const VALIDATION_REASONS = ['FieldValueInvalid', 'FieldValueForbidden', 'FieldValueRequired', 'FieldValueDuplicate'] as const;
