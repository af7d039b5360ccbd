import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import type { JSONSchemaProps } from '../../apis/apiextensions/v1/schema.js';
import type { KubeObject } from '../../runtime/registry/rest.js';
import type { APIGroupDefinition } from '../../runtime/registry/types.js';
import { startEtcd, type EtcdCluster } from '../storage/etcdServer.js';
import { allow, ctx, flunder, listOpts, newEnv, nextEvent, wardleGroup, write, type Env } from './helpers.js';

// Defaults are applied to objects read from storage, as kube's storage codec defaults what it
// decodes (structuraldefaulting for custom resources, the scheme's defaulters for built-in
// kinds): an object stored before a default existed is served with it, and storage keeps the
// bytes it has. On SQLite and on etcd.
const etcdMissing =
  spawnSync('sh', ['-c', 'command -v etcd'], { stdio: 'ignore' }).status !== 0 && spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status !== 0
    ? 'etcd is not installed and hack/install-etcd cannot install it here'
    : false;

/** wardle with a default that did not exist before: the storage version's spec.referenceType defaults to Flunder. */
function withNewDefault(group: APIGroupDefinition): APIGroupDefinition {
  const addDefault = (schema: JSONSchemaProps): JSONSchemaProps => {
    const out = structuredClone(schema);
    const referenceType = out.properties?.['spec']?.properties?.['referenceType'];
    assert.ok(referenceType, 'the storage version has spec.referenceType');
    assert.equal(referenceType.default, undefined, 'no default yet');
    referenceType.default = 'Flunder';
    return out;
  };
  return {
    ...group,
    versions: group.versions.map((v) => (v.name !== group.storageVersion ? v : { ...v, resources: v.resources.map((r) => (r.kind === 'Flunder' ? { ...r, schema: addDefault(r.schema) } : r)) })),
  };
}

const specOf = (o: KubeObject | undefined): Record<string, unknown> => (o?.['spec'] ?? {}) as Record<string, unknown>;

function suite(name: string, open: () => Promise<{ env: Env; close: () => Promise<void> }>, skip: string | false = false): void {
  describe(`objects stored before a default existed are served with it (${name})`, { skip }, () => {
    let env: Env;
    let close: () => Promise<void>;
    before(async () => ({ env, close } = await open()));
    after(async () => close?.());

    test('GET, LIST and WATCH show the new default; storage is not rewritten', async () => {
      const ns = `rd-${name}`;
      const old = await env.storages(wardleGroup, 'Flunder');
      await old.main.create(ctx(ns), flunder('a', { flunderReference: 'x' }), allow, write);
      assert.equal(specOf(await old.main.get(ctx(ns), 'a', { resourceVersion: '' }))['referenceType'], undefined, 'no default before');

      const served = await env.storages(withNewDefault(wardleGroup), 'Flunder');
      const got = await served.main.get(ctx(ns), 'a', { resourceVersion: '' });
      assert.deepEqual(specOf(got), { flunderReference: 'x', referenceType: 'Flunder' });

      const list = await served.main.list(ctx(ns), listOpts());
      assert.deepEqual(
        list.items.map((o) => specOf(o)['referenceType']),
        ['Flunder'],
      );

      const w = await served.main.watch(ctx(ns), listOpts({ resourceVersion: '0' }));
      try {
        const ev = await nextEvent(w);
        assert.equal(ev.type, 'ADDED');
        assert.equal(ev.type === 'ADDED' ? specOf(ev.object)['referenceType'] : undefined, 'Flunder');
      } finally {
        w.stop();
      }

      const raw = await (await env.raw('wardle.example.com', 'flunders')).get(`/wardle.example.com/flunders/${ns}/a`);
      assert.deepEqual(raw?.['spec'], { reference: 'x' }, 'the stored object keeps what was written');
    });

    test('a value that was set is never replaced by the default', async () => {
      const ns = `rd2-${name}`;
      const old = await env.storages(wardleGroup, 'Flunder');
      await old.main.create(ctx(ns), flunder('b', { fischerReference: 'f', referenceType: 'Fischer' }), allow, write);
      const served = await env.storages(withNewDefault(wardleGroup), 'Flunder');
      assert.deepEqual(specOf(await served.main.get(ctx(ns), 'b', { resourceVersion: '' })), { fischerReference: 'f', referenceType: 'Fischer' });
    });
  });
}

suite('sqlite', async () => {
  const env = await newEnv();
  return { env, close: () => env.close() };
});

let etcd: EtcdCluster | undefined;
suite(
  'etcd3',
  async () => {
    etcd = await startEtcd();
    const env = await newEnv({ backend: 'etcd3', endpoints: etcd.endpoints, compactionIntervalMs: 0 });
    return {
      env,
      close: async () => {
        await env.close();
        await etcd?.close();
      },
    };
  },
  etcdMissing,
);
