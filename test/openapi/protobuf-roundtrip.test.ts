// The protobuf /openapi/v2 document decodes (by the descriptor alone) to the JSON document it
// was encoded from: every definition, path, operation, parameter, response and extension.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiGroups } from '../../generated/index.js';
import { encodeSwaggerV2Protobuf, gnosticDocumentType, openAPIFromGroupDefinition, OpenAPIService, toGnosticDocument } from '../../runtime/server/openapi/index.js';
import { dig } from '../apiextensions/controllers-helpers.js';
import { decodeSwaggerV2Protobuf, parseAnyYAML } from './protobuf-decode.js';

type Doc = Record<string, unknown>;

/** The value of the pair called `name` in a gnostic list of named pairs (NamedSchema, NamedAny, …). */
function named(pairs: unknown, name: string): unknown {
  assert.ok(Array.isArray(pairs), `pairs for ${name}`);
  return dig(
    pairs.find((p: unknown) => dig(p, 'name') === name),
    'value',
  );
}

function servedDocument(): Doc {
  const service = new OpenAPIService();
  for (const def of apiGroups) for (const gv of openAPIFromGroupDefinition(def)) service.setGroupVersion(gv.group, gv.version, gv.document);
  return JSON.parse(service.swaggerV2().body.toString()) as Doc;
}

/** Every Swagger 2.0 feature the encoder knows, in forms that read back unambiguously. */
const FIXTURE: Doc = {
  swagger: '2.0',
  info: {
    title: 'Fixture',
    version: 'v0.1',
    description: 'line one\nline two',
    termsOfService: 'https://example.com/tos',
    contact: { name: 'n', url: 'https://example.com', email: 'a@example.com' },
    license: { name: 'Apache-2.0', url: 'https://www.apache.org/licenses/LICENSE-2.0' },
    'x-info': { nested: [1, 2.5, true, null] },
  },
  host: 'example.com',
  basePath: '/base',
  schemes: ['https'],
  consumes: ['application/json'],
  produces: ['application/json', 'application/yaml'],
  paths: {
    '/things/{name}': {
      parameters: [{ name: 'name', in: 'path', required: true, type: 'string', uniqueItems: true, description: 'name of the thing' }, { $ref: '#/parameters/pretty' }],
      get: {
        tags: ['things'],
        summary: 'read',
        description: 'reads a thing',
        operationId: 'readThing',
        externalDocs: { description: 'more', url: 'https://example.com/docs' },
        produces: ['application/json'],
        schemes: ['https'],
        deprecated: true,
        security: [{ BearerToken: [] }, { OAuth: ['read', 'write'] }],
        parameters: [
          { name: 'limit', in: 'query', type: 'integer', format: 'int64', minimum: 0, maximum: 500, exclusiveMaximum: true, default: 10, allowEmptyValue: true },
          { name: 'mode', in: 'query', type: 'string', enum: ['on', 'off', 'yes', '1:20'], default: 'on' },
          { name: 'ids', in: 'query', type: 'array', items: { type: 'string', pattern: '^[a-z]+$', maxLength: 63, minLength: 1 }, collectionFormat: 'csv', maxItems: 5, minItems: 1 },
          { name: 'X-Trace', in: 'header', type: 'string', required: false },
          { name: 'file', in: 'formData', type: 'file', required: true },
          { name: 'step', in: 'formData', type: 'number', multipleOf: 0.5, exclusiveMinimum: true, minimum: -1.5 },
        ],
        responses: {
          '200': {
            description: 'OK',
            schema: { $ref: '#/definitions/Thing' },
            headers: { 'X-Rate': { type: 'integer', description: 'remaining', format: 'int32' } },
            examples: { 'application/json': { name: 'a' } },
            'x-response': 'r',
          },
          '401': { $ref: '#/responses/Unauthorized' },
          default: { description: 'a file', schema: { type: 'file', description: 'bytes' } },
          'x-codes': ['200'],
        },
        'x-kubernetes-action': 'get',
        'x-kubernetes-group-version-kind': { group: 'example.com', version: 'v1', kind: 'Thing' },
      },
      post: {
        consumes: ['application/json'],
        parameters: [{ name: 'body', in: 'body', required: true, description: 'the thing', schema: { $ref: '#/definitions/Thing' }, 'x-body': 1 }],
        responses: { '201': { description: 'Created', schema: { type: 'object', additionalProperties: { type: 'string' } } } },
      },
      'x-path': true,
    },
    'x-paths': 'ext',
  },
  definitions: {
    Thing: {
      description: 'A thing.\n\nWith paragraphs and a long line that would be folded by a YAML writer which folds lines at eighty columns.',
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string', title: 'Name', readOnly: true, example: 'n' },
        tuple: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }] },
        nullableName: { type: ['string', 'null'] },
        closed: { type: 'object', additionalProperties: false, maxProperties: 3, minProperties: 1, xml: { name: 'c', namespace: 'urn:x', prefix: 'p', attribute: true, wrapped: true } },
        conditions: {
          type: 'array',
          items: { $ref: '#/definitions/Condition' },
          'x-kubernetes-list-map-keys': ['type'],
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-patch-merge-key': 'type',
          'x-kubernetes-patch-strategy': 'merge',
        },
        composed: { allOf: [{ $ref: '#/definitions/Condition' }], default: { type: 'Ready' }, discriminator: 'type', externalDocs: { url: 'https://example.com' } },
      },
      'x-kubernetes-group-version-kind': [{ group: 'example.com', kind: 'Thing', version: 'v1' }],
    },
    Condition: { type: 'object', properties: { type: { type: 'string', enum: ['Ready', 'no', 42, null] } } },
  },
  parameters: { pretty: { name: 'pretty', in: 'query', type: 'string', uniqueItems: true } },
  responses: { Unauthorized: { description: 'Unauthorized' } },
  security: [{ BearerToken: [] }],
  securityDefinitions: {
    BearerToken: { type: 'apiKey', name: 'authorization', in: 'header', description: 'Bearer' },
    Basic: { type: 'basic', 'x-basic': 'b' },
    Implicit: { type: 'oauth2', flow: 'implicit', authorizationUrl: 'https://example.com/auth', scopes: { read: 'read things' } },
    Password: { type: 'oauth2', flow: 'password', tokenUrl: 'https://example.com/token', scopes: {} },
    Application: { type: 'oauth2', flow: 'application', tokenUrl: 'https://example.com/token', scopes: { write: 'write' } },
    AccessCode: { type: 'oauth2', flow: 'accessCode', authorizationUrl: 'https://example.com/auth', tokenUrl: 'https://example.com/token', scopes: {}, description: 'ac' },
  },
  tags: [{ name: 'things', description: 'Things', externalDocs: { url: 'https://example.com/things' }, 'x-tag': 't' }],
  externalDocs: { description: 'docs', url: 'https://example.com/docs' },
  'x-document': { a: 'b' },
};

describe('OpenAPI v2 protobuf round trip', () => {
  const served = servedDocument();
  const decoded = decodeSwaggerV2Protobuf(encodeSwaggerV2Protobuf(served));

  it('decodes to the served JSON document, as a whole', () => {
    assert.deepStrictEqual(decoded, served);
  });

  it('keeps every definition, its properties in order, and its vendor extensions', () => {
    const definitions = decoded['definitions'] as Doc;
    assert.deepEqual(Object.keys(definitions), Object.keys(served['definitions'] as Doc));
    for (const [name, schema] of Object.entries(served['definitions'] as Doc)) {
      assert.deepStrictEqual(definitions[name], schema, name);
      const properties = dig(schema, 'properties');
      if (properties) assert.deepEqual(Object.keys(dig(definitions, name, 'properties') as Doc), Object.keys(properties as Doc), `${name} property order`);
    }
    assert.deepStrictEqual(dig(definitions, 'com.example.wardle.v1beta1.Flunder', 'x-kubernetes-group-version-kind'), [{ group: 'wardle.example.com', kind: 'Flunder', version: 'v1beta1' }]);
    const conditions = dig(definitions, 'io.k8s.api.core.v1.NamespaceStatus', 'properties', 'conditions');
    assert.equal(dig(conditions, 'x-kubernetes-patch-strategy'), 'merge');
    assert.equal(dig(conditions, 'x-kubernetes-patch-merge-key'), 'type');
  });

  it('keeps every path, operation, parameter and response in order', () => {
    const paths = decoded['paths'] as Doc;
    assert.deepEqual(Object.keys(paths), Object.keys(served['paths'] as Doc));
    let parameters = 0;
    for (const [path, item] of Object.entries(served['paths'] as Doc)) {
      assert.deepStrictEqual(paths[path], item, path);
      for (const [method, op] of Object.entries(item as Doc)) {
        const params = (method === 'parameters' ? op : (dig(op, 'parameters') ?? [])) as readonly unknown[];
        parameters += params.length;
        params.forEach((p, i) =>
          assert.deepStrictEqual(method === 'parameters' ? dig(paths, path, 'parameters', String(i)) : dig(paths, path, method, 'parameters', String(i)), p, `${path} ${method} parameter ${i}`),
        );
      }
    }
    assert.ok(parameters > 100, `the served document has parameters to check (${parameters})`);
  });

  it('round-trips every Swagger 2.0 construct of a hand-written document', () => {
    assert.deepStrictEqual(decodeSwaggerV2Protobuf(encodeSwaggerV2Protobuf(FIXTURE)), FIXTURE);
  });

  it('writes Any values as YAML a YAML 1.1 reader takes back unchanged (kubectl reads extensions with yaml.v2)', () => {
    const doc = toGnosticDocument(FIXTURE);
    const thing = named(dig(doc, 'definitions', 'additionalProperties'), 'Thing');
    const gvk = dig(named(dig(thing, 'vendorExtension'), 'x-kubernetes-group-version-kind'), 'yaml');
    assert.equal(gvk, '- group: example.com\n  kind: Thing\n  version: v1\n');
    const conditions = named(dig(thing, 'properties', 'additionalProperties'), 'conditions');
    assert.equal(dig(named(dig(conditions, 'vendorExtension'), 'x-kubernetes-patch-strategy'), 'yaml'), 'merge\n');
    const mode = dig(doc, 'paths', 'path', '0', 'value', 'get', 'parameters', '1', 'parameter', 'nonBodyParameter', 'queryParameterSubSchema');
    const values = dig(mode, 'enum') as readonly unknown[];
    assert.deepEqual(
      values.map((a) => dig(a, 'yaml')),
      ['"on"\n', '"off"\n', '"yes"\n', '"1:20"\n'],
    );
    assert.deepEqual(
      values.map((a) => parseAnyYAML(dig(a, 'yaml') as string)),
      ['on', 'off', 'yes', '1:20'],
    );
  });

  it('uses the oneof members of the wire contract: body and non-body parameters, references, file schemas', () => {
    const doc = toGnosticDocument(FIXTURE);
    const item = dig(doc, 'paths', 'path', '0', 'value');
    assert.deepEqual(Object.keys(dig(item, 'parameters', '0', 'parameter', 'nonBodyParameter') as Doc), ['pathParameterSubSchema']);
    assert.deepEqual(dig(item, 'parameters', '1'), { jsonReference: { ref: '#/parameters/pretty' } });
    assert.deepEqual(Object.keys(dig(item, 'get', 'parameters', '3', 'parameter', 'nonBodyParameter') as Doc), ['headerParameterSubSchema']);
    assert.deepEqual(Object.keys(dig(item, 'get', 'parameters', '4', 'parameter', 'nonBodyParameter') as Doc), ['formDataParameterSubSchema']);
    assert.equal(dig(item, 'post', 'parameters', '0', 'parameter', 'bodyParameter', 'schema', 'ref'), '#/definitions/Thing');
    const codes = (dig(item, 'get', 'responses', 'responseCode') as readonly unknown[]).map((r) => [dig(r, 'name'), Object.keys(dig(r, 'value') as Doc)[0]]);
    assert.deepEqual(codes, [
      ['200', 'response'],
      ['401', 'jsonReference'],
      ['default', 'response'],
    ]);
    assert.deepEqual(Object.keys(dig(item, 'get', 'responses', 'responseCode', '2', 'value', 'response', 'schema') as Doc), ['fileSchema']);
    assert.deepEqual(dig(item, 'post', 'responses', 'responseCode', '0', 'value', 'response', 'schema', 'schema', 'additionalProperties'), { schema: { type: { value: ['string'] } } });
  });

  it('leaves out what Swagger 2.0 cannot say instead of failing the whole document', () => {
    const odd: Doc = {
      swagger: '2.0',
      info: { title: 't', version: 'v' },
      paths: { '/a': { get: { parameters: [{ name: 'c', in: 'cookie', type: 'string' }], responses: { '200': { description: 'OK' }, bogus: { description: 'x' } } } } },
      definitions: { A: { type: 'object', nullable: true, oneOf: [{ type: 'string' }], properties: { b: { type: 'string', 'x-keep': 1 } } } },
    };
    assert.deepStrictEqual(decodeSwaggerV2Protobuf(encodeSwaggerV2Protobuf(odd)), {
      swagger: '2.0',
      info: { title: 't', version: 'v' },
      // An empty repeated field is not on the wire at all.
      paths: { '/a': { get: { responses: { '200': { description: 'OK' } } } } },
      definitions: { A: { type: 'object', properties: { b: { type: 'string', 'x-keep': 1 } } } },
    });
  });

  it('loads a descriptor whose every type reference resolves', () => {
    const type = gnosticDocumentType();
    assert.equal(type.fullName, '.openapi.v2.Document');
    assert.equal(type.fields['definitions']!.id, 9);
    assert.equal(type.lookupType('Schema').fields['vendorExtension']!.id, 31);
  });
});
