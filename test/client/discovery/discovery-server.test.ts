// The discovery client against the control plane on SQLite: what it finds for every group is
// what `kubectl api-resources -o wide` prints for the same server, and its disk cache is
// kubectl's (the same files, readable both ways).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { APIResourceList } from '../../../apis/meta/v1/discovery.js';
import { CachedDiscoveryClient, DiscoveryClient, discoveryCacheDir, KUBECTL_DISCOVERY_TTL_MS, MemCacheClient } from '../../../runtime/client/discovery/index.js';
import { restClientFromKubeconfig, type HTTPRESTClient, type RESTClient, type RESTRequest } from '../../../runtime/client/index.js';
import { statusErrorFromResponse } from '../../../runtime/client/rest/index.js';
import { HttpsClient } from '../../integration/https.js';
import { describeBackends } from '../../integration/harness.js';
import { Kubectl, kubectlUnavailable } from '../../integration/kubectl.js';

/**
 * A GET-only RESTClient that sends the Accept header a DiscoveryRequest names, as client-go's
 * discovery does, and records what each answer was (the HTTP client of runtime/client/rest sends
 * it too, but does not show the requests).
 */
function acceptingClient(https: HttpsClient, seen: { path: string; contentType: string | undefined }[]): RESTClient {
  return {
    async request<R>(req: RESTRequest & { accept?: string }): Promise<R> {
      const r = await https.request({ path: req.path, headers: { Accept: req.accept ?? 'application/json' } });
      const contentType = r.headers['content-type'];
      seen.push({ path: req.path, contentType });
      if (r.status < 200 || r.status > 299) throw statusErrorFromResponse({ method: 'GET', statusCode: r.status, contentType, retryAfterSeconds: undefined, body: r.body });
      return JSON.parse(r.text) as R;
    },
    watch: () => Promise.reject(new Error('discovery does not watch')),
  };
}

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

      it("aggregated discovery: two requests, the server's aggregated documents, the same groups and resources as the legacy documents", async () => {
        const https = new HttpsClient(cp().credentials);
        try {
          const seen: { path: string; contentType: string | undefined }[] = [];
          const aggregated = await new DiscoveryClient(acceptingClient(https, seen)).serverGroupsAndResources();
          assert.deepEqual(
            seen.map((s) => [s.path, s.contentType]),
            [
              ['/api', 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList'],
              ['/apis', 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList'],
            ],
          );
          // The package's HTTP client sends discovery's Accept header too: it reads the same aggregated documents.
          assert.deepEqual(await new DiscoveryClient(rest).serverGroupsAndResources(), aggregated);
          const legacy = await new DiscoveryClient(rest).withLegacy().serverGroupsAndResources();
          const groups = (gs: typeof legacy.groups): unknown => gs.map((g) => [g.name, g.preferredVersion?.version, g.versions.map((v) => v.groupVersion)]);
          assert.deepEqual(groups(aggregated.groups), groups(legacy.groups));
          const byName = (ls: readonly APIResourceList[]): unknown =>
            ls
              // The aggregated form always names the response kind's group and version, and gives a subresource its
              // parent's singular name (client-go's convertAPISubresource); the legacy form does neither.
              .flatMap((l) =>
                l.resources.map(({ group: _g, version: _v, ...r }) => ({
                  gv: l.groupVersion,
                  ...r,
                  singularName: r.name.includes('/') ? '' : r.singularName,
                  verbs: [...r.verbs].sort(),
                  shortNames: r.shortNames ?? [],
                  categories: r.categories ?? [],
                  storageVersionHash: undefined,
                })),
              )
              .sort((a, b) => (`${a.gv} ${a.name}` < `${b.gv} ${b.name}` ? -1 : 1));
          assert.deepEqual(byName(aggregated.resources), byName(legacy.resources));
        } finally {
          https.agent.destroy();
        }
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
