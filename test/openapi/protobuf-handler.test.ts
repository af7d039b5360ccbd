// /openapi/v2 negotiates JSON or gnostic protobuf as kube-openapi's handler does, with the JSON
// document's ETag on both, 304 on a match, 406 for anything else; the encoding is cached per document.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { apiGroups } from '../../generated/index.js';
import { newOpenAPIHandler, openAPIFromGroupDefinition, OpenAPIService, PROTOBUF_V2_CONTENT_TYPE } from '../../runtime/server/openapi/index.js';
import { dig } from '../apiextensions/controllers-helpers.js';
import { serveHandler, type TestServer } from '../discovery/serve-handler.js';
import { decodeSwaggerV2Protobuf } from './protobuf-decode.js';

const DEPRECATED_ACCEPT = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
const sha512 = (bytes: Uint8Array): string => createHash('sha512').update(bytes).digest('hex').toUpperCase();

interface BinaryResponse {
  status: number;
  headers: Headers;
  body: Buffer;
}

describe('/openapi/v2 in protobuf', () => {
  let clock = new Date('2025-01-02T03:04:05Z');
  const service = new OpenAPIService({ now: () => clock });
  let server: TestServer;

  before(async () => {
    for (const def of apiGroups) for (const gv of openAPIFromGroupDefinition(def)) service.setGroupVersion(gv.group, gv.version, gv.document);
    server = await serveHandler(newOpenAPIHandler(service));
  });
  after(() => server.close());

  async function get(headers: Record<string, string>): Promise<BinaryResponse> {
    const r = await fetch(`${server.url}/openapi/v2`, { headers });
    return { status: r.status, headers: r.headers, body: Buffer.from(await r.arrayBuffer()) };
  }

  it("serves kubectl's Accept as gnostic protobuf, named by the current media type, with the JSON document's ETag", async () => {
    const json = await get({ accept: 'application/json' });
    const pb = await get({ accept: DEPRECATED_ACCEPT });
    assert.equal(pb.status, 200);
    assert.equal(pb.headers.get('content-type'), PROTOBUF_V2_CONTENT_TYPE);
    assert.equal(pb.headers.get('vary'), 'Accept');
    assert.equal(pb.headers.get('etag'), `"${sha512(json.body)}"`);
    assert.equal(pb.headers.get('etag'), json.headers.get('etag'));
    assert.equal(pb.headers.get('last-modified'), clock.toUTCString());
    assert.deepStrictEqual(decodeSwaggerV2Protobuf(pb.body), JSON.parse(json.body.toString()));
  });

  it('serves the current media type too, and takes the first acceptable clause in preference order', async () => {
    assert.equal((await get({ accept: PROTOBUF_V2_CONTENT_TYPE })).headers.get('content-type'), PROTOBUF_V2_CONTENT_TYPE);
    assert.equal((await get({ accept: `application/json;q=0.5, ${DEPRECATED_ACCEPT}` })).headers.get('content-type'), PROTOBUF_V2_CONTENT_TYPE);
    assert.equal((await get({ accept: `${DEPRECATED_ACCEPT};q=0.5, application/json` })).headers.get('content-type'), 'application/json');
    assert.equal((await get({ accept: `text/html, ${DEPRECATED_ACCEPT}` })).headers.get('content-type'), PROTOBUF_V2_CONTENT_TYPE);
    // Ranges take the first format, JSON; so does no Accept at all.
    assert.equal((await get({ accept: '*/*' })).headers.get('content-type'), 'application/json');
    assert.equal((await get({ accept: 'application/*' })).headers.get('content-type'), 'application/json');
    assert.equal((await get({})).headers.get('content-type'), 'application/json');
  });

  it('answers 304 to If-None-Match of the ETag, and 406 NotAcceptable to other media types', async () => {
    const pb = await get({ accept: DEPRECATED_ACCEPT });
    const again = await get({ accept: DEPRECATED_ACCEPT, 'if-none-match': pb.headers.get('etag')! });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
    const refused = await get({ accept: 'application/vnd.kubernetes.protobuf' });
    assert.equal(refused.status, 406);
    const status = JSON.parse(refused.body.toString()) as { reason: string; message: string };
    assert.equal(status.reason, 'NotAcceptable');
    assert.match(status.message, /application\/com\.github\.proto-openapi\.spec\.v2\.v1\.0\+protobuf/);
  });

  it('encodes once per document and again after a change', async () => {
    const first = service.swaggerV2Protobuf();
    assert.equal(service.swaggerV2Protobuf(), first);
    clock = new Date('2025-01-02T04:00:00Z');
    service.removeGroupVersion('wardle.example.com', 'v1alpha1');
    const changed = service.swaggerV2Protobuf();
    assert.notEqual(changed.hash, first.hash);
    assert.equal(changed.hash, service.swaggerV2().hash);
    const decoded = decodeSwaggerV2Protobuf(changed.body) as { definitions: Record<string, unknown> };
    assert.equal(decoded.definitions['com.example.wardle.v1alpha1.Flunder'], undefined);
    const pb = await get({ accept: DEPRECATED_ACCEPT });
    assert.equal(pb.headers.get('etag'), `"${changed.hash}"`);
    assert.equal(pb.headers.get('last-modified'), clock.toUTCString());
    assert.ok(Buffer.compare(pb.body, changed.body) === 0);
  });

  it('merges the aggregated servers’ Swagger documents into the protobuf form as into the JSON one', async () => {
    service.setAggregatedSwaggerV2([
      {
        swagger: '2.0',
        info: { title: 'remote', version: 'v1' },
        paths: {
          '/apis/remote.example.com/v1/things': { get: { responses: { '200': { description: 'OK', schema: { $ref: '#/definitions/com.example.remote.v1.Thing' } } }, 'x-kubernetes-action': 'list' } },
        },
        definitions: { 'com.example.remote.v1.Thing': { type: 'object', 'x-kubernetes-group-version-kind': [{ group: 'remote.example.com', version: 'v1', kind: 'Thing' }] } },
      },
    ]);
    const pb = await get({ accept: DEPRECATED_ACCEPT });
    const decoded = decodeSwaggerV2Protobuf(pb.body);
    assert.equal(dig(decoded, 'paths', '/apis/remote.example.com/v1/things', 'get', 'x-kubernetes-action'), 'list');
    assert.deepEqual(dig(decoded, 'definitions', 'com.example.remote.v1.Thing', 'x-kubernetes-group-version-kind'), [{ group: 'remote.example.com', version: 'v1', kind: 'Thing' }]);
    assert.deepStrictEqual(decoded, JSON.parse(service.swaggerV2().body.toString()));
  });
});
