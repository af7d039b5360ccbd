import type { INamespace, IType } from 'protobufjs';

/**
 * The wire contract of `/openapi/v2` in protobuf: the messages of gnostic's OpenAPIv2.proto
 * (package `openapi.v2`, proto3), as a protobufjs JSON descriptor. Field numbers, types, rules
 * and oneofs follow the .proto; field names are the protobufjs camelCase forms (`_ref` is
 * `ref`), which never reach the wire. Every message of the package is here so that any valid
 * Swagger 2.0 document, including an aggregated server's, has an encoding.
 */

type Scalar = 'string' | 'bool' | 'double' | 'int64';
/** [field number, type, repeated?] */
type FieldSpec = readonly [number, Scalar | string, 'repeated'?];

function message(fields: Record<string, FieldSpec>, oneof?: readonly string[]): IType {
  const out: IType = {
    fields: Object.fromEntries(Object.entries(fields).map(([name, [id, type, rule]]) => [name, rule === undefined ? { type, id } : { type, id, rule }])),
  };
  // gnostic names every oneof `oneof`.
  if (oneof !== undefined) out.oneofs = { oneof: { oneof: [...oneof] } };
  return out;
}

const VENDOR = 'NamedAny';

/** Fields shared by the four non-body parameter sub-schemas and PrimitivesItems/Header, from `type` on. */
function primitiveFields(first: number): Record<string, FieldSpec> {
  const names: ReadonlyArray<readonly [string, Scalar | string, 'repeated'?]> = [
    ['type', 'string'],
    ['format', 'string'],
    ['items', 'PrimitivesItems'],
    ['collectionFormat', 'string'],
    ['default', 'Any'],
    ['maximum', 'double'],
    ['exclusiveMaximum', 'bool'],
    ['minimum', 'double'],
    ['exclusiveMinimum', 'bool'],
    ['maxLength', 'int64'],
    ['minLength', 'int64'],
    ['pattern', 'string'],
    ['maxItems', 'int64'],
    ['minItems', 'int64'],
    ['uniqueItems', 'bool'],
    ['enum', 'Any', 'repeated'],
    ['multipleOf', 'double'],
  ];
  return Object.fromEntries(names.map(([name, type, rule], i) => [name, rule === undefined ? [first + i, type] : [first + i, type, rule]]));
}

/** required/in/description/name, then allowEmptyValue for query and formData, then the primitive fields. */
function nonBodySubSchema(allowEmptyValue: boolean): IType {
  const head: Record<string, FieldSpec> = { required: [1, 'bool'], in: [2, 'string'], description: [3, 'string'], name: [4, 'string'] };
  if (allowEmptyValue) head['allowEmptyValue'] = [5, 'bool'];
  const first = allowEmptyValue ? 6 : 5;
  return message({ ...head, ...primitiveFields(first), vendorExtension: [first + 17, VENDOR, 'repeated'] });
}

const named = (valueType: string): IType => message({ name: [1, 'string'], value: [2, valueType] });
const mapOf = (namedType: string): IType => message({ additionalProperties: [1, namedType, 'repeated'] });

const OAUTH2_HEAD: Record<string, FieldSpec> = { type: [1, 'string'], flow: [2, 'string'], scopes: [3, 'Oauth2Scopes'] };

export const GNOSTIC_OPENAPI_V2: INamespace = {
  nested: {
    google: {
      nested: {
        protobuf: { nested: { Any: message({ typeUrl: [1, 'string'], value: [2, 'bytes'] }) } },
      },
    },
    openapi: {
      nested: {
        v2: {
          nested: {
            AdditionalPropertiesItem: message({ schema: [1, 'Schema'], boolean: [2, 'bool'] }, ['schema', 'boolean']),
            Any: message({ value: [1, 'google.protobuf.Any'], yaml: [2, 'string'] }),
            ApiKeySecurity: message({ type: [1, 'string'], name: [2, 'string'], in: [3, 'string'], description: [4, 'string'], vendorExtension: [5, VENDOR, 'repeated'] }),
            BasicAuthenticationSecurity: message({ type: [1, 'string'], description: [2, 'string'], vendorExtension: [3, VENDOR, 'repeated'] }),
            BodyParameter: message({
              description: [1, 'string'],
              name: [2, 'string'],
              in: [3, 'string'],
              required: [4, 'bool'],
              schema: [5, 'Schema'],
              vendorExtension: [6, VENDOR, 'repeated'],
            }),
            Contact: message({ name: [1, 'string'], url: [2, 'string'], email: [3, 'string'], vendorExtension: [4, VENDOR, 'repeated'] }),
            Default: mapOf('NamedAny'),
            Definitions: mapOf('NamedSchema'),
            Document: message({
              swagger: [1, 'string'],
              info: [2, 'Info'],
              host: [3, 'string'],
              basePath: [4, 'string'],
              schemes: [5, 'string', 'repeated'],
              consumes: [6, 'string', 'repeated'],
              produces: [7, 'string', 'repeated'],
              paths: [8, 'Paths'],
              definitions: [9, 'Definitions'],
              parameters: [10, 'ParameterDefinitions'],
              responses: [11, 'ResponseDefinitions'],
              security: [12, 'SecurityRequirement', 'repeated'],
              securityDefinitions: [13, 'SecurityDefinitions'],
              tags: [14, 'Tag', 'repeated'],
              externalDocs: [15, 'ExternalDocs'],
              vendorExtension: [16, VENDOR, 'repeated'],
            }),
            Examples: mapOf('NamedAny'),
            ExternalDocs: message({ description: [1, 'string'], url: [2, 'string'], vendorExtension: [3, VENDOR, 'repeated'] }),
            FileSchema: message({
              format: [1, 'string'],
              title: [2, 'string'],
              description: [3, 'string'],
              default: [4, 'Any'],
              required: [5, 'string', 'repeated'],
              type: [6, 'string'],
              readOnly: [7, 'bool'],
              externalDocs: [8, 'ExternalDocs'],
              example: [9, 'Any'],
              vendorExtension: [10, VENDOR, 'repeated'],
            }),
            FormDataParameterSubSchema: nonBodySubSchema(true),
            Header: message({ ...primitiveFields(1), description: [18, 'string'], vendorExtension: [19, VENDOR, 'repeated'] }),
            HeaderParameterSubSchema: nonBodySubSchema(false),
            Headers: mapOf('NamedHeader'),
            Info: message({
              title: [1, 'string'],
              version: [2, 'string'],
              description: [3, 'string'],
              termsOfService: [4, 'string'],
              contact: [5, 'Contact'],
              license: [6, 'License'],
              vendorExtension: [7, VENDOR, 'repeated'],
            }),
            ItemsItem: message({ schema: [1, 'Schema', 'repeated'] }),
            JsonReference: message({ ref: [1, 'string'], description: [2, 'string'] }),
            License: message({ name: [1, 'string'], url: [2, 'string'], vendorExtension: [3, VENDOR, 'repeated'] }),
            NamedAny: named('Any'),
            NamedHeader: named('Header'),
            NamedParameter: named('Parameter'),
            NamedPathItem: named('PathItem'),
            NamedResponse: named('Response'),
            NamedResponseValue: named('ResponseValue'),
            NamedSchema: named('Schema'),
            NamedSecurityDefinitionsItem: named('SecurityDefinitionsItem'),
            NamedString: named('string'),
            NamedStringArray: named('StringArray'),
            NonBodyParameter: message(
              {
                headerParameterSubSchema: [1, 'HeaderParameterSubSchema'],
                formDataParameterSubSchema: [2, 'FormDataParameterSubSchema'],
                queryParameterSubSchema: [3, 'QueryParameterSubSchema'],
                pathParameterSubSchema: [4, 'PathParameterSubSchema'],
              },
              ['headerParameterSubSchema', 'formDataParameterSubSchema', 'queryParameterSubSchema', 'pathParameterSubSchema'],
            ),
            Oauth2AccessCodeSecurity: message({
              ...OAUTH2_HEAD,
              authorizationUrl: [4, 'string'],
              tokenUrl: [5, 'string'],
              description: [6, 'string'],
              vendorExtension: [7, VENDOR, 'repeated'],
            }),
            Oauth2ApplicationSecurity: message({ ...OAUTH2_HEAD, tokenUrl: [4, 'string'], description: [5, 'string'], vendorExtension: [6, VENDOR, 'repeated'] }),
            Oauth2ImplicitSecurity: message({ ...OAUTH2_HEAD, authorizationUrl: [4, 'string'], description: [5, 'string'], vendorExtension: [6, VENDOR, 'repeated'] }),
            Oauth2PasswordSecurity: message({ ...OAUTH2_HEAD, tokenUrl: [4, 'string'], description: [5, 'string'], vendorExtension: [6, VENDOR, 'repeated'] }),
            Oauth2Scopes: mapOf('NamedString'),
            Operation: message({
              tags: [1, 'string', 'repeated'],
              summary: [2, 'string'],
              description: [3, 'string'],
              externalDocs: [4, 'ExternalDocs'],
              operationId: [5, 'string'],
              produces: [6, 'string', 'repeated'],
              consumes: [7, 'string', 'repeated'],
              parameters: [8, 'ParametersItem', 'repeated'],
              responses: [9, 'Responses'],
              schemes: [10, 'string', 'repeated'],
              deprecated: [11, 'bool'],
              security: [12, 'SecurityRequirement', 'repeated'],
              vendorExtension: [13, VENDOR, 'repeated'],
            }),
            Parameter: message({ bodyParameter: [1, 'BodyParameter'], nonBodyParameter: [2, 'NonBodyParameter'] }, ['bodyParameter', 'nonBodyParameter']),
            ParameterDefinitions: mapOf('NamedParameter'),
            ParametersItem: message({ parameter: [1, 'Parameter'], jsonReference: [2, 'JsonReference'] }, ['parameter', 'jsonReference']),
            PathItem: message({
              ref: [1, 'string'],
              get: [2, 'Operation'],
              put: [3, 'Operation'],
              post: [4, 'Operation'],
              delete: [5, 'Operation'],
              options: [6, 'Operation'],
              head: [7, 'Operation'],
              patch: [8, 'Operation'],
              parameters: [9, 'ParametersItem', 'repeated'],
              vendorExtension: [10, VENDOR, 'repeated'],
            }),
            PathParameterSubSchema: nonBodySubSchema(false),
            Paths: message({ vendorExtension: [1, VENDOR, 'repeated'], path: [2, 'NamedPathItem', 'repeated'] }),
            PrimitivesItems: message({ ...primitiveFields(1), vendorExtension: [18, VENDOR, 'repeated'] }),
            Properties: mapOf('NamedSchema'),
            QueryParameterSubSchema: nonBodySubSchema(true),
            Response: message({
              description: [1, 'string'],
              schema: [2, 'SchemaItem'],
              headers: [3, 'Headers'],
              examples: [4, 'Examples'],
              vendorExtension: [5, VENDOR, 'repeated'],
            }),
            ResponseDefinitions: mapOf('NamedResponse'),
            ResponseValue: message({ response: [1, 'Response'], jsonReference: [2, 'JsonReference'] }, ['response', 'jsonReference']),
            Responses: message({ responseCode: [1, 'NamedResponseValue', 'repeated'], vendorExtension: [2, VENDOR, 'repeated'] }),
            Schema: message({
              ref: [1, 'string'],
              format: [2, 'string'],
              title: [3, 'string'],
              description: [4, 'string'],
              default: [5, 'Any'],
              multipleOf: [6, 'double'],
              maximum: [7, 'double'],
              exclusiveMaximum: [8, 'bool'],
              minimum: [9, 'double'],
              exclusiveMinimum: [10, 'bool'],
              maxLength: [11, 'int64'],
              minLength: [12, 'int64'],
              pattern: [13, 'string'],
              maxItems: [14, 'int64'],
              minItems: [15, 'int64'],
              uniqueItems: [16, 'bool'],
              maxProperties: [17, 'int64'],
              minProperties: [18, 'int64'],
              required: [19, 'string', 'repeated'],
              enum: [20, 'Any', 'repeated'],
              additionalProperties: [21, 'AdditionalPropertiesItem'],
              type: [22, 'TypeItem'],
              items: [23, 'ItemsItem'],
              allOf: [24, 'Schema', 'repeated'],
              properties: [25, 'Properties'],
              discriminator: [26, 'string'],
              readOnly: [27, 'bool'],
              xml: [28, 'Xml'],
              externalDocs: [29, 'ExternalDocs'],
              example: [30, 'Any'],
              vendorExtension: [31, VENDOR, 'repeated'],
            }),
            SchemaItem: message({ schema: [1, 'Schema'], fileSchema: [2, 'FileSchema'] }, ['schema', 'fileSchema']),
            SecurityDefinitions: mapOf('NamedSecurityDefinitionsItem'),
            SecurityDefinitionsItem: message(
              {
                basicAuthenticationSecurity: [1, 'BasicAuthenticationSecurity'],
                apiKeySecurity: [2, 'ApiKeySecurity'],
                oauth2ImplicitSecurity: [3, 'Oauth2ImplicitSecurity'],
                oauth2PasswordSecurity: [4, 'Oauth2PasswordSecurity'],
                oauth2ApplicationSecurity: [5, 'Oauth2ApplicationSecurity'],
                oauth2AccessCodeSecurity: [6, 'Oauth2AccessCodeSecurity'],
              },
              ['basicAuthenticationSecurity', 'apiKeySecurity', 'oauth2ImplicitSecurity', 'oauth2PasswordSecurity', 'oauth2ApplicationSecurity', 'oauth2AccessCodeSecurity'],
            ),
            SecurityRequirement: mapOf('NamedStringArray'),
            StringArray: message({ value: [1, 'string', 'repeated'] }),
            Tag: message({ name: [1, 'string'], description: [2, 'string'], externalDocs: [3, 'ExternalDocs'], vendorExtension: [4, VENDOR, 'repeated'] }),
            TypeItem: message({ value: [1, 'string', 'repeated'] }),
            VendorExtension: mapOf('NamedAny'),
            Xml: message({
              name: [1, 'string'],
              namespace: [2, 'string'],
              prefix: [3, 'string'],
              attribute: [4, 'bool'],
              wrapped: [5, 'bool'],
              vendorExtension: [6, VENDOR, 'repeated'],
            }),
          },
        },
      },
    },
  },
};
