// Encryption at rest in the storage factory, without a server: each resource gets the transformer
// of its group and resource (read from its storage prefix), and an update of an unchanged object
// read with a key that is no longer first rewrites it under the first key (kube's stale read).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { StoredObject } from '../../runtime/apimachinery/object.js';
import { simpleUpdate } from '../../runtime/storage/interfaces.js';
import { newStorageFactory, type StorageFactory } from '../../runtime/storage/factory.js';
import { newResourceTransformers, type ProviderConfig } from '../../runtime/storage/value/resources.js';

const dir = mkdtempSync(join(tmpdir(), 'encryption-factory-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const key1 = randomBytes(32);
const key2 = randomBytes(32);
const gcm = (...keys: Array<[string, Buffer]>): ProviderConfig => ({ type: 'aesgcm', keys: keys.map(([name, secret]) => ({ name, secret })) });

function factory(providers: ProviderConfig[], watchCache: boolean): StorageFactory {
  const resourceTransformers = newResourceTransformers([
    { resources: [{ group: '', resource: 'services' }], providers },
    { resources: [{ group: 'wardle.example.com', resource: '*' }], providers },
  ]);
  return newStorageFactory({ backend: { backend: 'sqlite', path: join(dir, `kube-${watchCache}.db`), compactionIntervalMs: 0 }, watchCache, resourceTransformers });
}

const obj = (name: string): StoredObject => ({ apiVersion: 'v1', kind: 'Thing', metadata: { name, namespace: 'default', annotations: { secret: 'plain-text-marker' } } });

async function raw(f: StorageFactory, key: string): Promise<string> {
  return ((await f.kv.get(`/registry${key}`)).kv?.value ?? Buffer.alloc(0)).toString('latin1');
}

for (const watchCache of [false, true]) {
  test(`per-resource transformers and rotation through the factory (watch cache ${watchCache})`, async () => {
    let f = factory([gcm(['k1', key1])], watchCache);
    try {
      const services = await f.forResource({ resourcePrefix: '/services/' });
      const flunders = await f.forResource({ resourcePrefix: '/wardle.example.com/flunders/' });
      const namespaces = await f.forResource({ resourcePrefix: '/namespaces/' });
      await services.create('/services/default/a', obj('a'));
      await flunders.create('/wardle.example.com/flunders/default/b', obj('b'));
      await namespaces.create('/namespaces/default/c', obj('c'));
      assert.ok((await raw(f, '/services/default/a')).startsWith('k8s:enc:aesgcm:v1:k1:'));
      assert.ok((await raw(f, '/wardle.example.com/flunders/default/b')).startsWith('k8s:enc:aesgcm:v1:k1:'));
      assert.ok((await raw(f, '/namespaces/default/c')).startsWith('{'), 'a resource no rule names is stored as is');
      assert.equal((await raw(f, '/services/default/a')).includes('plain-text-marker'), false);
      assert.equal((await services.get('/services/default/a'))?.metadata?.annotations?.['secret'], 'plain-text-marker');
    } finally {
      await f.close();
    }

    f = factory([gcm(['k2', key2], ['k1', key1])], watchCache);
    try {
      const services = await f.forResource({ resourcePrefix: '/services/' });
      const before = await services.get('/services/default/a');
      assert.equal(before?.metadata?.annotations?.['secret'], 'plain-text-marker');
      assert.ok((await raw(f, '/services/default/a')).startsWith('k8s:enc:aesgcm:v1:k1:'), 'reads do not write');
      // Nothing changes, yet the value is written again: it was read with a key that is not first.
      const after = await services.guaranteedUpdate('/services/default/a', { tryUpdate: simpleUpdate((o) => o) });
      assert.notEqual(after.metadata?.resourceVersion, before?.metadata?.resourceVersion);
      assert.ok((await raw(f, '/services/default/a')).startsWith('k8s:enc:aesgcm:v1:k2:'));
      // Written with the first key now: another unchanged update is a no-op.
      const again = await services.guaranteedUpdate('/services/default/a', { tryUpdate: simpleUpdate((o) => o) });
      assert.equal(again.metadata?.resourceVersion, after.metadata?.resourceVersion);
    } finally {
      await f.close();
    }
  });
}
