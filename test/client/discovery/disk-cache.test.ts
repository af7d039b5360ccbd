// Ports of client-go's discovery/cached/disk/cached_discovery_test.go: the files, their TTL and
// modes, and fresh() across instances sharing a directory.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { APIGroupList, APIResourceList } from '../../../apis/meta/v1/discovery.js';
import { CachedDiscoveryClient, discoveryCacheDir, serverGroupsAndResources, serverPreferredNamespacedResources, serverPreferredResources } from '../../../runtime/client/discovery/index.js';
import type { DiscoveryInterface, GroupsAndResources, OpenAPIV3Client, VersionInfo } from '../../../runtime/client/discovery/index.js';

/** client-go's fakeDiscoveryClient of these tests: group `a`, version v1, one resource; counts calls. */
class CountingDiscovery implements DiscoveryInterface {
  groupCalls = 0;
  resourceCalls = 0;

  serverGroups(): Promise<APIGroupList> {
    this.groupCalls++;
    return Promise.resolve({ groups: [{ name: 'a', versions: [{ groupVersion: 'a/v1', version: 'v1' }], preferredVersion: { groupVersion: 'a/v1', version: 'v1' } }] });
  }

  serverResourcesForGroupVersion(groupVersion: string): Promise<APIResourceList> {
    this.resourceCalls++;
    return Promise.resolve({ groupVersion, resources: [{ name: 'widgets', singularName: 'widget', namespaced: true, kind: 'Widget', verbs: ['get'] }] });
  }

  serverGroupsAndResources(): Promise<GroupsAndResources> {
    return serverGroupsAndResources(this);
  }

  serverPreferredResources(): Promise<APIResourceList[]> {
    return serverPreferredResources(this);
  }

  serverPreferredNamespacedResources(): Promise<APIResourceList[]> {
    return serverPreferredNamespacedResources(this);
  }

  serverVersion(): Promise<VersionInfo> {
    return Promise.reject(new Error('unused'));
  }

  openAPIV3(): OpenAPIV3Client {
    return { paths: () => Promise.reject(new Error('unused')) };
  }
}

const dirs: string[] = [];
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'discovery-cache-'));
  dirs.push(d);
  return d;
};
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('disk-cached discovery (client-go discovery/cached/disk)', () => {
  it('TestCachedDiscoveryClient_Fresh', async () => {
    const d = tempDir();
    const c = new CountingDiscovery();
    let cdc = new CachedDiscoveryClient(c, { cacheDirectory: d, ttlMs: 60_000 });
    assert.equal(cdc.fresh(), true, 'fresh after creation');
    await cdc.serverGroups();
    assert.equal(cdc.fresh(), true, 'fresh after a groups call without cache');
    assert.equal(c.groupCalls, 1);
    await cdc.serverGroups();
    assert.equal(cdc.fresh(), true, 'fresh after another groups call');
    assert.equal(c.groupCalls, 1);
    await cdc.serverGroupsAndResources();
    assert.equal(cdc.fresh(), true, 'fresh after a resources call');
    assert.equal(c.resourceCalls, 1);
    await cdc.serverGroupsAndResources();
    assert.equal(c.resourceCalls, 1);

    cdc = new CachedDiscoveryClient(c, { cacheDirectory: d, ttlMs: 60_000 });
    await cdc.serverGroups();
    assert.equal(cdc.fresh(), false, 'NOT fresh after recreation with an existing groups cache');
    assert.equal(c.groupCalls, 1);
    await cdc.serverGroupsAndResources();
    assert.equal(cdc.fresh(), false);
    assert.equal(c.resourceCalls, 1);

    cdc.invalidate();
    assert.equal(cdc.fresh(), true, 'fresh after invalidation');
    await cdc.serverGroupsAndResources();
    assert.equal(cdc.fresh(), true, 'the existing files are ignored after invalidation');
    assert.equal(c.resourceCalls, 2);
  });

  it('TestNewCachedDiscoveryClient_TTL', async () => {
    const d = tempDir();
    const c = new CountingDiscovery();
    let now = Date.now();
    const cdc = new CachedDiscoveryClient(c, { cacheDirectory: d, ttlMs: 1000, now: () => now });
    await cdc.serverGroups();
    await cdc.serverGroups();
    assert.equal(c.groupCalls, 1);
    now += 2000;
    await cdc.serverGroups();
    assert.equal(c.groupCalls, 2);
  });

  it('TestNewCachedDiscoveryClient_PathPerm: directories 0750, files 0660, no temporary files left', async () => {
    const d = join(tempDir(), 'not-yet');
    const cdc = new CachedDiscoveryClient(new CountingDiscovery(), { cacheDirectory: d, ttlMs: 60_000 });
    await cdc.serverGroupsAndResources();
    const walk = (p: string): string[] => (statSync(p).isDirectory() ? [p, ...readdirSync(p).flatMap((n) => walk(join(p, n)))] : [p]);
    const all = walk(d);
    assert.deepEqual(all.map((p) => p.slice(d.length)).sort(), ['', '/a', '/a/v1', '/a/v1/serverresources.json', '/servergroups.json']);
    for (const p of all) assert.equal(statSync(p).mode & 0o777, statSync(p).isDirectory() ? 0o750 : 0o660, p);
    const groups = JSON.parse(readFileSync(join(d, 'servergroups.json'), 'utf8')) as { kind: string; apiVersion: string };
    assert.deepEqual([groups.kind, groups.apiVersion], ['APIGroupList', 'v1']);
  });

  it('a file that is not the expected document is a miss, not an answer', async () => {
    const d = tempDir();
    writeFileSync(join(d, 'servergroups.json'), '{"kind":"Secret","groups":[]}');
    const c = new CountingDiscovery();
    const cdc = new CachedDiscoveryClient(c, { cacheDirectory: d, ttlMs: 60_000 });
    assert.equal((await cdc.serverGroups()).groups[0]?.name, 'a');
    assert.equal(c.groupCalls, 1);
    writeFileSync(join(d, 'servergroups.json'), 'not json');
    const again = new CachedDiscoveryClient(c, { cacheDirectory: d, ttlMs: 60_000 });
    await again.serverGroups();
    assert.equal(c.groupCalls, 2);
  });

  it("discoveryCacheDir is kubectl's computeDiscoverCacheDir", () => {
    assert.equal(discoveryCacheDir('/home/u/.kube/cache', 'https://127.0.0.1:6443'), '/home/u/.kube/cache/discovery/127.0.0.1_6443');
    assert.equal(discoveryCacheDir('/c', 'http://my-host:8080/prefix'), '/c/discovery/my_host_8080/prefix');
    assert.equal(discoveryCacheDir('/c', 'https://[::1]:6443'), '/c/discovery/___1__6443');
  });
});
