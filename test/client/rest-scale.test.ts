// The scale verbs of the typed client runtime over HTTP. No generated resource of this repository
// has a scale subresource yet, so this serves Fischers with one (the generic store is configured by
// data) through the real endpoint handlers on SQLite, and talks to it with the HTTP REST client.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { JSONSchemaProps } from '../../apis/apiextensions/v1/schema.js';
import { isConflict, isNotFound } from '../../runtime/apimachinery/errors/index.js';
import { ResourceClient, type ResourceDescriptor } from '../../runtime/client/index.js';
import { restClientForConfig, type HTTPRESTClient } from '../../runtime/client/rest/index.js';
import type { APIGroupDefinition } from '../../runtime/registry/types.js';
import { startServer, wardleGroup, type TestServer } from '../endpoints/helpers.js';

interface ScaledFischer {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; resourceVersion?: string };
  spec?: { replicas?: number };
  status?: { replicas?: number; selector?: string };
}

function withScale(group: APIGroupDefinition): APIGroupDefinition {
  return {
    ...group,
    versions: group.versions.map((v) => ({
      ...v,
      resources: v.resources.map((r) => {
        if (r.kind !== 'Fischer') return r;
        const schema: JSONSchemaProps = {
          ...r.schema,
          properties: {
            ...r.schema.properties,
            spec: { type: 'object', properties: { replicas: { type: 'integer' } } },
            status: { type: 'object', properties: { replicas: { type: 'integer' }, selector: { type: 'string' } } },
          },
        };
        return { ...r, schema, subresources: { status: true, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } } };
      }),
    })),
  };
}

const fischers: ResourceDescriptor = { group: 'wardle.example.com', version: 'v1alpha1', resource: 'fischers', kind: 'Fischer', namespaced: false };

describe('scale subresource through the HTTP REST client', () => {
  let server: TestServer;
  let rest: HTTPRESTClient;
  let client: ResourceClient<ScaledFischer>;
  before(async () => {
    server = await startServer({ group: withScale(wardleGroup) });
    rest = restClientForConfig({ host: `http://127.0.0.1:${server.port}`, warningHandler: () => {} });
    client = new ResourceClient<ScaledFischer>(rest, fischers, undefined);
  });
  after(async () => {
    rest.close();
    await server.close();
  });

  test('getScale and updateScale read and write the replicas path; a stale Scale conflicts', async () => {
    await client.create({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Fischer', metadata: { name: 's1' }, spec: { replicas: 2 } });
    await client.updateStatus({ ...(await client.get('s1')), status: { replicas: 2, selector: 'app=s1' } });
    const scale = await client.getScale('s1');
    assert.equal(scale.kind, 'Scale');
    assert.equal(scale.apiVersion, 'autoscaling/v1');
    assert.deepEqual(scale.spec, { replicas: 2 });
    assert.deepEqual(scale.status, { replicas: 2, selector: 'app=s1' });
    const updated = await client.updateScale('s1', { ...scale, spec: { replicas: 5 } });
    assert.equal(updated.spec?.replicas, 5);
    assert.equal((await client.get('s1')).spec?.replicas, 5);
    const stale = client.updateScale('s1', { ...scale, spec: { replicas: 1 } });
    await assert.rejects(stale, (e) => isConflict(e));
    await assert.rejects(client.getScale('missing'), (e) => isNotFound(e));
  });
});
