// Strategic merge patch directives with hostile values: `$patch`, `$retainKeys`,
// `$setElementOrder/<list>` and `$deleteFromPrimitiveList/<list>`, each with values of every JSON
// type, placed at the root, in metadata, in spec, in a map and in a list item, sent as dry-run
// strategic merge patches to Services, Namespaces, ConfigMaps, ClusterRoles and Flunders (lists
// merged by key, maps, primitive lists). Every answer must be a success, a Status with a 4xx code,
// or one of the 500s kube itself answers: strategicpatch's own errors (`unknown patch type: …`,
// `expected a []interface {}, but received a string`) are plain Go errors that the handler's
// interpretStrategicMergePatchError passes through, and ErrorToAPIStatus makes any error that is
// not a Status a 500 with its text and no reason. What must never come is a 500 of ours: code
// that read a directive as the type it expected. The server stays up, Object.prototype clean.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeBackends } from '../integration/harness.js';
import { HttpsClient } from '../integration/https.js';
import { answeredAsKube, assertStillServing } from './sweep.js';

type Obj = Record<string, unknown>;

const NS = 'smp-sweep';
const STRATEGIC = 'application/strategic-merge-patch+json';

interface Target {
  readonly path: string;
  readonly object: Obj;
  /** Where directives go: the object's containers (maps) and the lists merged by key or primitive. */
  readonly mapsAt: ReadonlyArray<readonly string[]>;
  /** Lists: [path to the list's parent, list field name, an item of the list]. */
  readonly lists: ReadonlyArray<readonly [readonly string[], string, unknown]>;
}

const TARGETS: readonly Target[] = [
  {
    path: `/api/v1/namespaces/${NS}/services/smp`,
    object: {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'smp', labels: { a: 'b' }, finalizers: ['example.com/f'] },
      spec: { selector: { app: 'x' }, ports: [{ name: 'http', port: 80, protocol: 'TCP' }] },
    },
    mapsAt: [[], ['metadata'], ['metadata', 'labels'], ['spec'], ['spec', 'selector']],
    lists: [
      [['spec'], 'ports', { port: 80, protocol: 'TCP' }],
      [['metadata'], 'finalizers', 'example.com/f'],
    ],
  },
  {
    path: `/api/v1/namespaces/${NS}`,
    object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS, labels: { a: 'b' } }, spec: { finalizers: ['kubernetes'] } },
    mapsAt: [[], ['metadata'], ['spec']],
    lists: [[['spec'], 'finalizers', 'kubernetes']],
  },
  {
    path: `/api/v1/namespaces/${NS}/configmaps/smp`,
    object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'smp' }, data: { a: 'b' } },
    mapsAt: [[], ['metadata'], ['data']],
    lists: [],
  },
  {
    path: '/apis/rbac.authorization.k8s.io/v1/clusterroles/smp-sweep',
    object: {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'smp-sweep' },
      rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] },
    },
    mapsAt: [[], ['aggregationRule']],
    lists: [
      [[], 'rules', { apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
      [['aggregationRule'], 'clusterRoleSelectors', { matchLabels: { a: 'b' } }],
    ],
  },
  {
    path: `/apis/wardle.example.com/v1beta1/namespaces/${NS}/flunders/smp`,
    object: { apiVersion: 'wardle.example.com/v1beta1', kind: 'Flunder', metadata: { name: 'smp' }, spec: { flunderReference: 'x', referenceType: 'Flunder' } },
    mapsAt: [[], ['metadata'], ['spec']],
    lists: [],
  },
];

const VALUES: readonly unknown[] = ['delete', 'replace', 'merge', 'bogus', '', null, 0, 1.5, true, {}, [], [null], [1], [{}], ['x'], [[]], { a: 1 }, JSON.parse('{"__proto__":{"polluted":"yes"}}')];

/** `{…path: value}` as a patch. */
function at(path: readonly string[], value: Obj): Obj {
  return path.reduceRight<Obj>((inner, k) => ({ [k]: inner }), value);
}

function* patches(t: Target): Generator<[string, unknown]> {
  for (const v of VALUES) {
    for (const where of t.mapsAt) {
      const p = where.join('.') || '(root)';
      yield [`$patch at ${p} = ${JSON.stringify(v)}`, at(where, { $patch: v })];
      yield [`$retainKeys at ${p} = ${JSON.stringify(v)}`, at(where, { $retainKeys: v })];
    }
    for (const [parent, list, item] of t.lists) {
      const p = [...parent, list].join('.');
      yield [`$setElementOrder/${list} at ${p} = ${JSON.stringify(v)}`, at(parent, { [`$setElementOrder/${list}`]: v })];
      yield [`$deleteFromPrimitiveList/${list} at ${p} = ${JSON.stringify(v)}`, at(parent, { [`$deleteFromPrimitiveList/${list}`]: v })];
      yield [`$retainKeys/${list} at ${p} = ${JSON.stringify(v)}`, at(parent, { [`$retainKeys/${list}`]: v })];
      const withDirective = typeof item === 'object' && item !== null ? { ...(item as Obj), $patch: v } : v;
      yield [`list item of ${p} with $patch = ${JSON.stringify(v)}`, at(parent, { [list]: [withDirective] })];
      yield [`list ${p} = ${JSON.stringify(v)} beside its order`, at(parent, { [list]: v, [`$setElementOrder/${list}`]: [item] })];
      yield [`list ${p} of one item = ${JSON.stringify(v)}`, at(parent, { [list]: [v] })];
    }
  }
}

describeBackends(
  'strategic merge patch directives with hostile values',
  (cp) => {
    let c: HttpsClient;
    before(async () => {
      c = new HttpsClient(cp().credentials, { maxSockets: 8 });
      const ns = await c.json('POST', '/api/v1/namespaces', TARGETS[1]!.object);
      assert.equal(ns.status, 201, JSON.stringify(ns.body));
      for (const t of TARGETS) {
        if (t === TARGETS[1]) continue;
        const collection = t.path.slice(0, t.path.lastIndexOf('/'));
        const r = await c.json('POST', collection, t.object);
        assert.equal(r.status, 201, `${t.path}: ${JSON.stringify(r.body)}`);
      }
    });
    after(() => c.close());

    it("every directive with every value: a success, a 4xx Status or kube's own 500, never a crash", async (t) => {
      const failures: string[] = [];
      const jobs: Array<() => Promise<void>> = [];
      for (const target of TARGETS) {
        for (const [what, patch] of patches(target)) {
          jobs.push(async () => {
            const r = await c.request({ method: 'PATCH', path: `${target.path}?dryRun=All`, headers: { Accept: 'application/json', 'Content-Type': STRATEGIC }, body: JSON.stringify(patch) });
            if (!answeredAsKube(r.status, r.text)) failures.push(`${target.path} ${what}: ${r.status} ${r.text.slice(0, 300)}`);
          });
        }
      }
      for (let i = 0; i < jobs.length; i += 8) await Promise.all(jobs.slice(i, i + 8).map((j) => j()));
      t.diagnostic(`${jobs.length} patches`);
      assert.deepEqual(failures.slice(0, 40), [], `${failures.length} of ${jobs.length} answers were neither a success, a 4xx Status nor kube's own 500`);
      await assertStillServing(c, () => cp().exited());
    });
  },
  { only: ['sqlite'] },
);
