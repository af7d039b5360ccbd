// Decoding of backends' discovery documents and the answers fetchServiceDiscovery accepts:
// aggregated v2 and v2beta1 documents (by Content-Type, parameters in any order), legacy
// APIResourceLists with their subresources, 304 against the cached document, the legacy
// fallback on a legacy document, 404 or 406, and failures for anything else or malformed bodies.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BackendGetter, BackendResponse } from '../../runtime/aggregator/discovery-backend.js';
import { fromAggregatedDiscovery, fromAPIResourceList } from '../../runtime/aggregator/discovery-convert.js';
import { fetchServiceDiscovery } from '../../runtime/aggregator/discovery-fetch.js';

const aggregatedDoc = {
  kind: 'APIGroupDiscoveryList',
  apiVersion: 'apidiscovery.k8s.io/v2',
  items: [
    {
      metadata: { name: 'x.io' },
      versions: [
        {
          version: 'v1',
          resources: [
            {
              resource: 'widgets',
              responseKind: { group: 'x.io', version: 'v1', kind: 'Widget' },
              scope: 'Cluster',
              singularResource: 'widget',
              verbs: ['get', 'list'],
              shortNames: ['wd'],
              categories: ['all'],
              subresources: [
                { subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'update'] },
                { subresource: 'status', responseKind: { group: 'x.io', version: 'v1', kind: 'Widget' }, verbs: ['get'] },
              ],
            },
          ],
          freshness: 'Current',
        },
        { version: 'v2' },
      ],
    },
  ],
};

const legacyList = {
  kind: 'APIResourceList',
  groupVersion: 'x.io/v1',
  resources: [
    { name: 'widgets', singularName: 'widget', namespaced: true, kind: 'Widget', verbs: ['get'], storageVersionHash: 'abc=' },
    { name: 'widgets/scale', singularName: '', namespaced: true, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get'] },
    { name: 'widgets/status', singularName: '', namespaced: true, kind: 'Widget', verbs: ['get', 'patch'] },
    { name: 'orphans/status', singularName: '', namespaced: true, kind: 'Orphan', verbs: ['get'] },
  ],
};

describe('discovery documents of backends', () => {
  it('reads every group version of an aggregated document', () => {
    const gvs = fromAggregatedDiscovery(aggregatedDoc);
    assert.deepEqual([...gvs.keys()], ['x.io/v1', 'x.io/v2']);
    assert.deepEqual(gvs.get('x.io/v2'), []);
    assert.deepEqual(gvs.get('x.io/v1'), [
      {
        name: 'widgets',
        singularName: 'widget',
        namespaced: false,
        kind: 'Widget',
        verbs: ['get', 'list'],
        shortNames: ['wd'],
        categories: ['all'],
        subresources: [
          { name: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'update'] },
          { name: 'status', responseKind: { group: 'x.io', version: 'v1', kind: 'Widget' }, verbs: ['get'] },
        ],
      },
    ]);
    assert.throws(() => fromAggregatedDiscovery({ items: 'no' }), /items is not a list/);
    assert.throws(() => fromAggregatedDiscovery({ items: [{ metadata: { name: 'x.io' }, versions: [{ version: 'v1', resources: [null] }] }] }), /not an object/);
  });

  it("folds a legacy list's subresources into their resources, with the kinds they name", () => {
    assert.deepEqual(fromAPIResourceList('x.io', 'v1', legacyList), [
      {
        name: 'widgets',
        singularName: 'widget',
        namespaced: true,
        kind: 'Widget',
        verbs: ['get'],
        storageVersionHash: 'abc=',
        subresources: [
          { name: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get'] },
          { name: 'status', verbs: ['get', 'patch'] },
        ],
      },
    ]);
    assert.throws(() => fromAPIResourceList('x.io', 'v1', { resources: [{ kind: 'X' }] }), /has no name/);
  });
});

/** A backend answering from a script, recording what was asked. */
function scripted(answers: Record<string, (headers: Readonly<Record<string, string>>) => BackendResponse>): { get: BackendGetter; asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    get: async (path, headers) => {
      asked.push(`${path}${headers['If-None-Match'] !== undefined ? ` if-none-match=${headers['If-None-Match']}` : ''}`);
      const answer = answers[path];
      if (answer === undefined) throw new Error(`connect ECONNREFUSED (${path})`);
      return answer(headers);
    },
  };
}

const json = (status: number, body: unknown, contentType = 'application/json', etag?: string): BackendResponse => ({
  status,
  headers: { 'content-type': contentType, ...(etag !== undefined ? { etag } : {}) },
  body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
});

describe('fetchServiceDiscovery', () => {
  it('takes aggregated v2beta1 too, whatever the order of the Content-Type parameters, and keeps it on 304', async () => {
    const backend = scripted({
      '/apis': (h) => (h['If-None-Match'] === '"E1"' ? json(304, '') : json(200, aggregatedDoc, 'application/json;as=APIGroupDiscoveryList;v=v2beta1;g=apidiscovery.k8s.io', '"E1"')),
    });
    const first = await fetchServiceDiscovery({ get: backend.get, group: 'x.io', version: 'v1' });
    assert.equal(first.format, 'aggregated');
    assert.equal(first.etag, '"E1"');
    const second = await fetchServiceDiscovery({ get: backend.get, group: 'x.io', version: 'v1', cached: first });
    assert.equal(second, first);
    assert.deepEqual(backend.asked, ['/apis', '/apis if-none-match="E1"']);
  });

  for (const [what, answer] of [
    ['a legacy APIGroupList', json(200, { kind: 'APIGroupList', groups: [] })],
    ['404', json(404, { kind: 'Status', code: 404 })],
    ['406', json(406, { kind: 'Status', code: 406 })],
  ] as const) {
    it(`falls back to /apis/<group>/<version> on ${what}`, async () => {
      const backend = scripted({ '/apis': () => answer, '/apis/x.io/v1': () => json(200, legacyList) });
      const got = await fetchServiceDiscovery({ get: backend.get, group: 'x.io', version: 'v1' });
      assert.equal(got.format, 'legacy');
      assert.deepEqual(
        got.groupVersions.get('x.io/v1')?.map((r) => r.name),
        ['widgets'],
      );
      assert.deepEqual(backend.asked, ['/apis', '/apis/x.io/v1']);
    });
  }

  it('rejects a 5xx, a failing legacy document, malformed JSON and an unreachable backend', async () => {
    await assert.rejects(fetchServiceDiscovery({ get: scripted({ '/apis': () => json(503, 'down', 'text/plain') }).get, group: 'x.io', version: 'v1' }), /GET \/apis: unexpected status 503: down/);
    await assert.rejects(
      fetchServiceDiscovery({ get: scripted({ '/apis': () => json(404, {}), '/apis/x.io/v1': () => json(404, {}) }).get, group: 'x.io', version: 'v1' }),
      /GET \/apis\/x\.io\/v1: unexpected status 404/,
    );
    await assert.rejects(
      fetchServiceDiscovery({ get: scripted({ '/apis': () => json(200, '{', 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList') }).get, group: 'x.io', version: 'v1' }),
      /GET \/apis: invalid JSON/,
    );
    await assert.rejects(fetchServiceDiscovery({ get: scripted({}).get, group: 'x.io', version: 'v1' }), /ECONNREFUSED/);
  });
});
