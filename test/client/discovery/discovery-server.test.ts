// The discovery client against the control plane on SQLite: what it finds for every group is
// what `kubectl api-resources -o wide` prints for the same server, and its disk cache is
// kubectl's (the same files, readable both ways).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { APIResourceList } from '../../../apis/meta/v1/discovery.js';
import { CachedDiscoveryClient, DiscoveryClient, discoveryCacheDir, KUBECTL_DISCOVERY_TTL_MS, MemCacheClient } from '../../../runtime/client/discovery/index.js';
import { restClientFromKubeconfig, type HTTPRESTClient } from '../../../runtime/client/index.js';
import { describeBackends } from '../../integration/harness.js';
import { Kubectl, kubectlUnavailable } from '../../integration/kubectl.js';

/** The rows of `kubectl api-resources -o wide`, cut at the header's column offsets (tabwriter aligns with spaces). */
function parseTable(out: string): Record<string, string>[] {
  const lines = out.split('\n').filter((l) => l.trim() !== '');
  const header = lines[0] ?? '';
  const names = header.split(/\s+/).filter((n) => n !== '');
  const starts = names.map((n) => header.indexOf(n));
  return lines.slice(1).map((line) => Object.fromEntries(names.map((n, i) => [n, line.slice(starts[i], starts[i + 1]).trim()])));
}

/** The same rows computed from serverPreferredResources, as kubectl's api-resources prints them. */
function rows(lists: readonly APIResourceList[]): Record<string, string>[] {
  return lists.flatMap((l) =>
    l.resources.map((r) => ({
      NAME: r.name,
      SHORTNAMES: (r.shortNames ?? []).join(','),
      APIVERSION: l.groupVersion,
      NAMESPACED: String(r.namespaced),
      KIND: r.kind,
      VERBS: [...r.verbs].sort().join(','),
      CATEGORIES: (r.categories ?? []).join(','),
    })),
  );
}

const key = (r: Record<string, string>): string => `${r['APIVERSION']} ${r['NAME']}`;
const sorted = (rs: Record<string, string>[]): Record<string, string>[] => [...rs].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));

describe('discovery against the control plane', { skip: kubectlUnavailable() ?? false }, () => {
  describeBackends(
    'discovery client',
    (cp) => {
      let rest: HTTPRESTClient;
      let kc: Kubectl;
      before(() => {
        rest = restClientFromKubeconfig({ path: cp().kubeconfigPath }).rest;
        kc = new Kubectl(cp);
      });
      after(() => {
        rest.close();
        kc.dispose();
      });

      it('every group: serverPreferredResources is what kubectl api-resources -o wide prints', async () => {
        const r = await kc.run(['api-resources', '-o', 'wide']);
        assert.equal(r.code, 0, r.stderr);
        const theirs = sorted(parseTable(r.stdout));
        const ours = sorted(rows(await new DiscoveryClient(rest).serverPreferredResources()));
        assert.ok(ours.length > 10, `only ${ours.length} resources`);
        assert.deepEqual(ours, theirs);
        for (const gv of ['v1', 'wardle.example.com/v1alpha1', 'apiextensions.k8s.io/v1'])
          assert.ok(
            ours.some((x) => x['APIVERSION'] === gv),
            gv,
          );
      });

      it('groups and resources: every served group version, subresources included, and the version', async () => {
        const d = new DiscoveryClient(rest);
        const { groups, resources } = await d.serverGroupsAndResources();
        assert.equal(groups[0]?.name, '');
        const wardle = groups.find((g) => g.name === 'wardle.example.com');
        assert.deepEqual(
          wardle?.versions.map((v) => v.groupVersion),
          ['wardle.example.com/v1beta1', 'wardle.example.com/v1alpha1'].filter((gv) => wardle?.versions.some((v) => v.groupVersion === gv)),
        );
        const names = resources.find((l) => l.groupVersion === 'wardle.example.com/v1alpha1')?.resources.map((x) => x.name) ?? [];
        assert.ok(names.includes('flunders') && names.includes('flunders/status'), names.join(' '));
        // The legacy path (one request per group version) finds the same resources.
        const legacy = await d.withLegacy().serverGroupsAndResources();
        const names2 = (ls: readonly APIResourceList[]): string[] => ls.flatMap((l) => l.resources.map((x) => `${l.groupVersion} ${x.name}`)).sort();
        assert.deepEqual(names2(legacy.resources), names2(resources));
        assert.equal((await d.serverVersion()).minor, '32');
        const paths = await d.openAPIV3().paths();
        assert.ok(paths.has('api/v1') && paths.has('apis/wardle.example.com/v1alpha1'), [...paths.keys()].join(' '));
        const doc = (await paths.get('api/v1')?.schema()) as { openapi?: string };
        assert.match(doc.openapi ?? '', /^3\./);
      });

      it("the disk cache is kubectl's: it reads the files kubectl wrote, and kubectl reads ours", async () => {
        const r = await kc.run(['api-resources']);
        assert.equal(r.code, 0, r.stderr);
        const kubectlDir = discoveryCacheDir(`${kc.cacheDir}/default`, cp().url);
        let asked = 0;
        const counting = new DiscoveryClient({
          request: (req) => {
            asked++;
            return rest.request(req);
          },
          watch: (req) => rest.watch(req),
        });
        const cached = new CachedDiscoveryClient(new MemCacheClient(counting), { cacheDirectory: kubectlDir, ttlMs: KUBECTL_DISCOVERY_TTL_MS });
        const fromFiles = await cached.serverGroupsAndResources();
        assert.equal(asked, 0, 'every answer came from the files kubectl wrote');
        assert.equal(cached.fresh(), false);
        assert.ok(fromFiles.resources.some((l) => l.groupVersion === 'wardle.example.com/v1alpha1'));
        cached.invalidate();
        await cached.serverGroupsAndResources();
        assert.equal(cached.fresh(), true);
        assert.ok(asked > 0);
        // kubectl answers from the files this client rewrote.
        const again = await kc.run(['get', 'flunders', '-A', '-v=6']);
        assert.equal(again.code, 0, again.stderr);
        assert.doesNotMatch(again.stderr, /GET https:\/\/[^ ]+\/apis\?/);
      });
    },
    { only: ['sqlite'] },
  );
});
