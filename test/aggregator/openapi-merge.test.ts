// kube-openapi's merge of an aggregated server's Swagger 2.0 document into ours, and the
// filtering of a backend's document to one group version: existing paths win, equal
// definitions are shared, different ones are renamed `_v<N>` with every reference following,
// shared parameters likewise; filtering keeps what the paths reach, transitively.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { filterSwaggerV2ByPathPrefix, mergeSwaggerV2, type SwaggerV2Document } from '../../runtime/server/openapi/index.js';

const ref = (name: string): { $ref: string } => ({ $ref: `#/definitions/${name}` });
const op = (schema: string): unknown => ({ responses: { '200': { description: 'OK', schema: ref(schema) } } });

const local: SwaggerV2Document = {
  swagger: '2.0',
  info: { title: 'Kubernetes', version: 'v1.32.0' },
  paths: { '/api/v1/pods': { get: op('Pod') }, '/apis/x.io/v1/things': { get: op('Thing') } },
  definitions: {
    Pod: { type: 'object', properties: { metadata: ref('ObjectMeta') } },
    Thing: { type: 'object', description: 'local' },
    Thing_v2: { type: 'object', description: 'already taken' },
    ObjectMeta: { type: 'object' },
  },
  parameters: { 'body-abc': { name: 'body', in: 'body', required: true, schema: { type: 'object' } } },
};

describe('mergeSwaggerV2', () => {
  it('adds the new paths; a path both have keeps ours', () => {
    const merged = mergeSwaggerV2(local, {
      paths: { '/apis/x.io/v1/things': { get: op('Other') }, '/apis/y.io/v1/widgets': { get: op('Widget') } },
      definitions: { Other: { type: 'string' }, Widget: { type: 'object' } },
    });
    assert.deepEqual(Object.keys(merged.paths), ['/api/v1/pods', '/apis/x.io/v1/things', '/apis/y.io/v1/widgets']);
    assert.deepEqual(merged.paths['/apis/x.io/v1/things'], local.paths['/apis/x.io/v1/things']);
    // Only what the kept paths use comes along.
    assert.equal(merged.definitions!['Other'], undefined);
    assert.deepEqual(merged.definitions!['Widget'], { type: 'object' });
    assert.equal(merged['swagger'], '2.0');
  });

  it('shares equal definitions and renames different ones to the first free _v<N>, references following', () => {
    const merged = mergeSwaggerV2(local, {
      paths: { '/apis/y.io/v1/widgets': { get: op('Widget'), post: { parameters: [{ $ref: '#/parameters/body-abc' }], responses: { '201': { description: 'Created', schema: ref('Thing') } } } } },
      definitions: {
        Widget: { type: 'object', properties: { metadata: ref('ObjectMeta'), thing: ref('Thing'), items: { type: 'array', items: ref('Thing') } } },
        Thing: { type: 'object', description: 'remote' },
        ObjectMeta: { type: 'object' },
      },
      parameters: { 'body-abc': { name: 'body', in: 'body', required: false, schema: { type: 'object' } } },
    });
    assert.deepEqual(merged.definitions!['Thing'], { type: 'object', description: 'local' });
    assert.deepEqual(merged.definitions!['Thing_v2'], { type: 'object', description: 'already taken' });
    assert.deepEqual(merged.definitions!['Thing_v3'], { type: 'object', description: 'remote' });
    assert.equal(merged.definitions!['ObjectMeta_v2'], undefined);
    assert.deepEqual(merged.definitions!['Widget'], { type: 'object', properties: { metadata: ref('ObjectMeta'), thing: ref('Thing_v3'), items: { type: 'array', items: ref('Thing_v3') } } });
    const post = (merged.paths['/apis/y.io/v1/widgets'] as { post: { parameters: unknown[]; responses: { '201': { schema: unknown } } } }).post;
    assert.deepEqual(post.responses['201'].schema, ref('Thing_v3'));
    assert.deepEqual(post.parameters, [{ $ref: '#/parameters/body-abc_v2' }]);
    assert.deepEqual(Object.keys(merged.parameters!), ['body-abc', 'body-abc_v2']);
    // Ours untouched.
    assert.deepEqual(merged.paths['/api/v1/pods'], local.paths['/api/v1/pods']);
  });

  it('returns ours unchanged when every path of the other document is already there', () => {
    assert.equal(mergeSwaggerV2(local, { paths: { '/api/v1/pods': { get: op('X') } }, definitions: { X: {} } }), local);
  });
});

describe('filterSwaggerV2ByPathPrefix', () => {
  it('keeps the paths under the prefix and the definitions and parameters they reach, through other definitions too', () => {
    const doc: SwaggerV2Document = {
      swagger: '2.0',
      paths: {
        '/apis/w.io/v1/flunders': { get: op('FlunderList'), parameters: [{ $ref: '#/parameters/pretty' }] },
        '/apis/w.io/v2/flunders': { get: op('V2Flunder') },
        '/apis/w.io/v1': { get: op('APIResourceList') },
      },
      definitions: { FlunderList: { properties: { items: { items: ref('Flunder') } } }, Flunder: { properties: { metadata: ref('ObjectMeta') } }, ObjectMeta: {}, V2Flunder: {}, APIResourceList: {} },
      parameters: { pretty: { name: 'pretty', in: 'query' }, unused: { name: 'unused', in: 'query' } },
    };
    const filtered = filterSwaggerV2ByPathPrefix(doc, '/apis/w.io/v1/');
    assert.deepEqual(Object.keys(filtered.paths), ['/apis/w.io/v1/flunders']);
    assert.deepEqual(Object.keys(filtered.definitions!), ['Flunder', 'FlunderList', 'ObjectMeta']);
    assert.deepEqual(Object.keys(filtered.parameters!), ['pretty']);
  });
});
