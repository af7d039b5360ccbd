// NamespaceLifecycle reads namespaces as kube's plugin does: from the cache first, live only
// when the cache lacks the namespace or the namespace was deleted moments ago.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { namespaceLifecycle } from '../../runtime/admission/plugins/namespace-lifecycle.js';
import type { Attributes, ObjectLookup } from '../../runtime/admission/types.js';
import type { StoredObject } from '../../runtime/apimachinery/object.js';
import { StatusError } from '../../runtime/apimachinery/errors/index.js';

const ctx = { signal: new AbortController().signal };

function ns(name: string, phase = 'Active'): StoredObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name }, status: { phase } } as unknown as StoredObject;
}

/** A cache and a live store of namespaces, counting live reads; the live store may be down. */
function lookups(cache: Map<string, StoredObject>, live: Map<string, StoredObject>) {
  const calls = { live: 0, cached: 0 };
  let down = false;
  const lookup: ObjectLookup = {
    async get(_gr, _ns, name) {
      calls.live++;
      if (down) throw new Error('storage unreachable');
      return live.get(name);
    },
    async getCached(_gr, _ns, name) {
      calls.cached++;
      return cache.get(name);
    },
    async list() {
      return [...cache.values()];
    },
  };
  return { lookup, calls, setDown: (d: boolean) => (down = d) };
}

function attrs(operation: Attributes['operation'], namespace: string, over: Partial<Attributes> = {}): Attributes {
  return { operation, namespace, name: 'x', group: 'wardle.example.com', resource: 'flunders', kind: 'Flunder', ...over } as Attributes;
}

const deleteNamespace = (name: string): Attributes => attrs('DELETE', '', { name, group: '', resource: 'namespaces', kind: 'Namespace' });

describe('NamespaceLifecycle lookups', () => {
  it('admits a write into a cached namespace without a live read, even while storage is unreachable', async () => {
    const { lookup, calls, setDown } = lookups(new Map([['a', ns('a')]]), new Map());
    setDown(true);
    await namespaceLifecycle(lookup).admit(attrs('CREATE', 'a'), ctx);
    assert.equal(calls.live, 0);
  });

  it('reads live when the cache does not have the namespace yet, and answers NotFound when neither has it', async () => {
    const { lookup, calls } = lookups(new Map(), new Map([['fresh', ns('fresh')]]));
    const plugin = namespaceLifecycle(lookup);
    await plugin.admit(attrs('CREATE', 'fresh'), ctx);
    assert.equal(calls.live, 1);
    await assert.rejects(plugin.admit(attrs('CREATE', 'nope'), ctx), (e: unknown) => e instanceof StatusError && e.status.code === 404 && e.status.message === 'namespaces "nope" not found');
  });

  it('does not trust the cache for a namespace deleted within the TTL, and trusts it again after', async () => {
    let t = 1_000_000;
    const cache = new Map([['gone', ns('gone')]]);
    const { lookup, calls } = lookups(cache, new Map());
    const plugin = namespaceLifecycle(lookup, () => t);
    await plugin.admit(deleteNamespace('gone'), ctx);
    await assert.rejects(plugin.admit(attrs('CREATE', 'gone'), ctx), (e: unknown) => e instanceof StatusError && e.status.code === 404);
    assert.equal(calls.live, 1);
    t += 30_001;
    await plugin.admit(attrs('CREATE', 'gone'), ctx);
    assert.equal(calls.live, 1);
  });

  it('refuses creates in a terminating namespace and deletion of the immortal namespaces', async () => {
    const { lookup } = lookups(new Map([['t', ns('t', 'Terminating')]]), new Map());
    const plugin = namespaceLifecycle(lookup);
    await assert.rejects(plugin.admit(attrs('CREATE', 't'), ctx), (e: unknown) => e instanceof StatusError && e.status.code === 403 && /because it is being terminated/.test(e.status.message ?? ''));
    // admission.NewForbidden's name and cause: a create before its name is generated names its generateName.
    await assert.rejects(plugin.admit(attrs('CREATE', 't', { name: '', object: { metadata: { generateName: 'gen-' } } }), ctx), (e: unknown) => {
      assert.ok(e instanceof StatusError);
      assert.equal(e.status.message, 'flunders.wardle.example.com "gen-" is forbidden: unable to create new content in namespace t because it is being terminated');
      assert.deepEqual(e.status.details?.causes, [{ reason: 'NamespaceTerminating', message: 'namespace t is being terminated', field: 'metadata.namespace' }]);
      return true;
    });
    await assert.rejects(plugin.admit(attrs('CREATE', 't', { name: '', object: {} }), ctx), (e: unknown) => e instanceof StatusError && /"Unknown" is forbidden/.test(e.status.message ?? ''));
    await plugin.admit(attrs('UPDATE', 't'), ctx);
    await assert.rejects(plugin.admit(deleteNamespace('kube-system'), ctx), (e: unknown) => e instanceof StatusError && e.status.code === 403);
  });
});
