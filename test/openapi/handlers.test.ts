import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { apiGroups } from '../../generated/index.js';
import { newOpenAPIHandler, openAPIFromGroupDefinition, openAPIRoutes, OpenAPIService } from '../../runtime/server/openapi/index.js';
import { dig } from '../apiextensions/controllers-helpers.js';
import { serveHandler, type TestServer } from '../discovery/serve-handler.js';

const PROTOBUF_V2 = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
const sha512 = (text: string): string => createHash('sha512').update(text).digest('hex').toUpperCase();

describe('OpenAPI handlers', () => {
  let clock = new Date('2025-01-02T03:04:05Z');
  const service = new OpenAPIService({ now: () => clock });
  let server: TestServer;

  const install = (): void => {
    for (const def of apiGroups) for (const gv of openAPIFromGroupDefinition(def)) service.setGroupVersion(gv.group, gv.version, gv.document);
  };

  before(async () => {
    install();
    server = await serveHandler(newOpenAPIHandler(service));
  });
  after(() => server.close());

  async function root(): Promise<Record<string, { serverRelativeURL: string }>> {
    const r = await server.get('/openapi/v3?timeout=32s', { accept: 'application/json, */*' });
    assert.equal(r.status, 200);
    return (r.json() as { paths: Record<string, { serverRelativeURL: string }> }).paths;
  }

  it('serves the root with one hashed URL per group version, ETag and Last-Modified, and 304 on If-None-Match', async () => {
    const r = await server.get('/openapi/v3');
    const paths = (r.json() as { paths: Record<string, { serverRelativeURL: string }> }).paths;
    // Sorted by path, as kube's /openapi/v3 root; the security groups (issue 14), coordination and events (issue 16) are built in.
    assert.deepEqual(Object.keys(paths), [
      'api/v1',
      'apis/apiextensions.k8s.io/v1',
      'apis/apiregistration.k8s.io/v1',
      'apis/authentication.k8s.io/v1',
      'apis/authorization.k8s.io/v1',
      'apis/coordination.k8s.io/v1',
      'apis/events.k8s.io/v1',
      'apis/rbac.authorization.k8s.io/v1',
      'apis/wardle.example.com/v1alpha1',
      'apis/wardle.example.com/v1beta1',
    ]);
    assert.match(paths['api/v1']!.serverRelativeURL, /^\/openapi\/v3\/api\/v1\?hash=[0-9A-F]{128}$/);
    assert.equal(r.headers.get('etag'), `"${sha512(r.text)}"`);
    assert.equal(r.headers.get('last-modified'), clock.toUTCString());
    const again = await server.get('/openapi/v3', { 'if-none-match': r.headers.get('etag')! });
    assert.equal(again.status, 304);
    assert.equal(again.text, '');
  });

  it('serves a group version by its hash as immutable, with the hash of exactly its bytes', async () => {
    const url = (await root())['apis/wardle.example.com/v1alpha1']!.serverRelativeURL;
    const hash = url.split('hash=')[1]!;
    const r = await server.get(url, { accept: 'application/json' });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'application/json');
    assert.equal(sha512(r.text), hash);
    assert.equal(r.headers.get('etag'), `"${hash}"`);
    assert.equal(r.headers.get('cache-control'), 'public, immutable');
    assert.equal(r.headers.get('vary'), 'Accept');
    const expires = Date.parse(r.headers.get('expires')!);
    assert.ok(expires > Date.now() + 360 * 24 * 3600 * 1000, 'expires about a year ahead');
    const doc = r.json() as { openapi: string; paths: Record<string, unknown> };
    assert.equal(doc.openapi, '3.0.0');
    assert.ok(doc.paths['/apis/wardle.example.com/v1alpha1/namespaces/{namespace}/flunders/{name}']);
    assert.equal((await server.get(url, { 'if-none-match': `"${hash}"` })).status, 304);
  });

  it('redirects a stale hash to the current URL and serves without hash as cacheable-by-ETag only', async () => {
    const url = (await root())['api/v1']!.serverRelativeURL;
    const stale = await server.get('/openapi/v3/api/v1?hash=0123ABCD');
    assert.equal(stale.status, 301);
    assert.equal(stale.headers.get('location'), url);
    const plain = await server.get('/openapi/v3/api/v1');
    assert.equal(plain.status, 200);
    assert.equal(plain.headers.get('etag'), `"${url.split('hash=')[1]}"`);
    assert.equal(plain.headers.get('cache-control'), null);
    assert.equal(plain.headers.get('expires'), null);
  });

  it('answers 406 for Accepts it cannot satisfy and 404 for unknown documents', async () => {
    const pb = await server.get('/openapi/v3/api/v1', { accept: 'application/com.github.proto-openapi.spec.v3.v1.0+protobuf' });
    assert.equal(pb.status, 406);
    assert.equal((pb.json() as { reason: string }).reason, 'NotAcceptable');
    assert.equal((await server.get('/openapi/v3/api/v1', { accept: 'application/*' })).status, 200);
    const missing = await server.get('/openapi/v3/apis/nope.example.com/v1');
    assert.equal(missing.status, 404);
    assert.equal((missing.json() as { reason: string }).reason, 'NotFound');
    assert.equal((await server.request('POST', '/openapi/v3')).status, 404);
  });

  it('follows replacement and removal while serving', async () => {
    const before = await root();
    const oldURL = before['apis/wardle.example.com/v1alpha1']!.serverRelativeURL;
    const rootETag = (await server.get('/openapi/v3')).headers.get('etag');
    const [alpha] = openAPIFromGroupDefinition(apiGroups.find((g) => g.name === 'wardle.example.com')!).filter((d) => d.version === 'v1alpha1');
    service.setGroupVersion('wardle.example.com', 'v1alpha1', alpha!.document);
    assert.equal((await server.get('/openapi/v3')).headers.get('etag'), rootETag, 'an identical document changes nothing');

    clock = new Date('2025-01-02T04:00:00Z');
    const changed = { ...alpha!.document, info: { title: 'Kubernetes', version: 'v1.32.1' } };
    service.setGroupVersion('wardle.example.com', 'v1alpha1', changed);
    const after = await root();
    const newURL = after['apis/wardle.example.com/v1alpha1']!.serverRelativeURL;
    assert.notEqual(newURL, oldURL);
    const redirected = await server.get(oldURL);
    assert.equal(redirected.status, 301);
    assert.equal(redirected.headers.get('location'), newURL);
    const r = await server.get('/openapi/v3', { 'if-none-match': rootETag! });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('last-modified'), clock.toUTCString());

    service.removeGroupVersion('wardle.example.com', 'v1alpha1');
    assert.equal((await root())['apis/wardle.example.com/v1alpha1'], undefined);
    assert.equal((await server.get(newURL)).status, 404);
    install();
  });

  it('serves /openapi/v2 as Swagger 2.0 JSON merged from every group version (protobuf: protobuf-handler.test.ts)', async () => {
    const r = await server.get('/openapi/v2', { accept: 'application/json' });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('etag'), `"${sha512(r.text)}"`);
    assert.ok(!r.text.includes('#/components/schemas/'));
    const doc: unknown = r.json();
    assert.equal(dig(doc, 'swagger'), '2.0');
    assert.deepEqual(dig(doc, 'definitions', 'com.example.wardle.v1alpha1.Flunder', 'x-kubernetes-group-version-kind'), [{ group: 'wardle.example.com', kind: 'Flunder', version: 'v1alpha1' }]);
    assert.ok(dig(doc, 'definitions', 'io.k8s.api.core.v1.Namespace'));
    const conditions = dig(doc, 'definitions', 'io.k8s.api.core.v1.NamespaceStatus', 'properties', 'conditions');
    assert.equal(dig(conditions, 'x-kubernetes-patch-strategy'), 'merge');
    assert.equal(dig(conditions, 'x-kubernetes-patch-merge-key'), 'type');
    assert.equal(dig(conditions, 'items', '$ref'), '#/definitions/io.k8s.api.core.v1.NamespaceCondition');
    const patch = dig(doc, 'paths', '/api/v1/namespaces/{name}', 'patch');
    assert.ok((dig(patch, 'consumes') as string[]).includes('application/strategic-merge-patch+json'));
    const parameters = dig(patch, 'parameters') as readonly Readonly<Record<string, unknown>>[];
    assert.deepEqual(parameters[0], { name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch' } });
    assert.ok(parameters.some((p) => p['name'] === 'fieldValidation' && p['in'] === 'query' && p['type'] === 'string'));
    assert.deepEqual(dig(doc, 'paths', '/api/v1/namespaces/{name}', 'parameters', '0'), {
      name: 'name',
      in: 'path',
      description: 'name of the resource',
      required: true,
      type: 'string',
      uniqueItems: true,
    });
    assert.equal(dig(patch, 'responses', '200', 'schema', '$ref'), '#/definitions/io.k8s.api.core.v1.Namespace');
    assert.ok(!/"nullable":true/.test(r.text), 'no OpenAPI 3 nullable keyword');
    assert.ok(dig(doc, 'definitions', 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps', 'properties', 'nullable'), 'a property named nullable is kept');

    const pb = await server.get('/openapi/v2', { accept: PROTOBUF_V2 });
    assert.equal(pb.status, 200);
    assert.equal(pb.headers.get('content-type'), 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
    assert.equal((await server.get('/openapi/v2', { 'if-none-match': r.headers.get('etag')! })).status, 304);
  });

  it('caches serialized documents until a change', () => {
    assert.equal(service.root(), service.root());
    assert.equal(service.swaggerV2(), service.swaggerV2());
    const v2 = service.swaggerV2();
    service.removeGroupVersion('wardle.example.com', 'v1beta1');
    assert.notEqual(service.swaggerV2(), v2);
    install();
  });

  it('lists its routes', () => {
    assert.deepEqual(
      openAPIRoutes(service).map((r) => [r.path, r.prefix]),
      [
        ['/openapi/v3', false],
        ['/openapi/v3/', true],
        ['/openapi/v2', false],
      ],
    );
  });
});
