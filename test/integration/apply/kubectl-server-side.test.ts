// Acceptance (issue 15): the real kubectl's server-side apply against the control plane command on
// SQLite and etcd, with kubectl 1.27, 1.30 and 1.33 (the newest installed). What is asserted is
// what kubectl prints against kube-apiserver 1.32 and the managedFields kube stores:
// - built-in kinds (ConfigMap, ServiceAccount, rbac Role), a custom resource (the CronTab CRD of
//   apis/crds) and a Flunder are created by apply and owned by the manager "kubectl" (Apply);
// - two appliers with different values conflict (409, kubectl's message listing each field),
//   `--force-conflicts` takes the fields over and the loser's emptied entry is dropped
//   (kube: TestApplyUpdateApplyConflictForced, internal/conflict.go);
// - a field dropped from the manifest is removed unless another manager still owns it
//   (kube: TestApplyUnsetExclusivelyOwnedFields, TestApplyUnsetSharedFields);
// - `--dry-run=server` stores nothing;
// - client-side apply then `--server-side`: the server lets kubectl take the fields the
//   last-applied annotation holds (lastappliedmanager.go, TestUpgradeClientSideToServerSideApply),
//   then kubectl (1.26 and later) rewrites the managers: "kubectl-client-side-apply" is gone and the
//   annotation belongs to "kubectl-last-applied", an Apply entry kube writes without a time (as
//   kube-apiserver shows it after kubectl's migration);
// - `get -o yaml --show-managed-fields` prints the entries.
// Skipped (with the reason) only where a kubectl minor is not installed.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { createEstablishedCRD } from '../../apiextensions/env.js';
import { fails, ok } from '../assertions.js';
import { describeBackends, repoRoot } from '../harness.js';
import { HttpsClient } from '../https.js';
import { Kubectl, kubectlUnavailable, type KubectlResult } from '../kubectl.js';
import { flunderV1beta1, uniqueName } from '../objects.js';
import { assertManagedFieldsSorted, entry, KUBECTL_CONFLICT_ADVICE, managedFieldsOf, oneConflictMessage } from './managed.js';

const MINORS = [27, 30, 33];
const CRD = parse(readFileSync(join(repoRoot, 'apis/crds/stable.example.com_crontabs.yaml'), 'utf8')) as Record<string, unknown>;

type Obj = Record<string, unknown>;

function configMap(name: string, ns: string, data: Record<string, string>, labels?: Record<string, string>): Obj {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns, ...(labels ? { labels } : {}) }, data };
}

/** One kind applied by kubectl: its manifest, how kubectl names it, and the field set of that manifest. */
interface AppliedKind {
  title: string;
  resource: string;
  printed: string;
  apiVersion: string;
  manifest(name: string, ns: string): Obj;
  fieldsV1: string;
}

const kinds: readonly AppliedKind[] = [
  {
    title: 'ConfigMap',
    resource: 'configmap',
    printed: 'configmap',
    apiVersion: 'v1',
    manifest: (name, ns) => configMap(name, ns, { key: 'v1' }, { app: 'ssa' }),
    fieldsV1: '{"f:data":{"f:key":{}},"f:metadata":{"f:labels":{"f:app":{}}}}',
  },
  {
    // secrets merge by name (an associative list keyed by name) of ObjectReferences, an atomic
    // struct in kube (+structType=atomic): each item is owned whole, a leaf. imagePullSecrets is atomic.
    title: 'ServiceAccount',
    resource: 'serviceaccount',
    printed: 'serviceaccount',
    apiVersion: 'v1',
    manifest: (name, ns) => ({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name, namespace: ns },
      secrets: [{ name: 'tok' }],
      imagePullSecrets: [{ name: 'pull' }],
      automountServiceAccountToken: false,
    }),
    fieldsV1: '{"f:automountServiceAccountToken":{},"f:imagePullSecrets":{},"f:secrets":{"k:{\\"name\\":\\"tok\\"}":{}}}',
  },
  {
    // rules is an atomic list: one field for all of it.
    title: 'rbac Role',
    resource: 'role.rbac.authorization.k8s.io',
    printed: 'role.rbac.authorization.k8s.io',
    apiVersion: 'rbac.authorization.k8s.io/v1',
    manifest: (name, ns) => ({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name, namespace: ns },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }],
    }),
    fieldsV1: '{"f:rules":{}}',
  },
  {
    title: 'CronTab (custom resource)',
    resource: 'crontab.stable.example.com',
    printed: 'crontab.stable.example.com',
    apiVersion: 'stable.example.com/v1',
    manifest: (name, ns) => ({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name, namespace: ns }, spec: { cronSpec: '*/5 * * * *', image: 'cron:1' } }),
    fieldsV1: '{"f:spec":{"f:cronSpec":{},"f:image":{}}}',
  },
  {
    title: 'Flunder',
    resource: 'flunders',
    printed: flunderV1beta1.printed,
    apiVersion: flunderV1beta1.apiVersion,
    manifest: (name, ns) => flunderV1beta1.manifest(name, ns),
    fieldsV1: '{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:flunderReference":{}}}',
  },
];

describeBackends('kubectl apply --server-side', (cp) => {
  let c: HttpsClient;
  before(async () => {
    c = new HttpsClient(cp().credentials);
    await createEstablishedCRD(c, CRD, '/apis/stable.example.com/v1/crontabs');
  });
  after(() => c.close());

  for (const minor of MINORS) {
    describe(`kubectl 1.${minor}`, { skip: kubectlUnavailable(minor) ?? false }, () => {
      let kc: Kubectl;
      let ns = '';
      const run = (args: string[], stdin?: Obj): Promise<KubectlResult> => kc.run(args, stdin === undefined ? { minor } : { minor, stdin: JSON.stringify(stdin) });
      const ssa = (stdin: Obj, ...flags: string[]): Promise<KubectlResult> => run(['apply', '--server-side', ...flags, '-f', '-'], stdin);
      const getJSON = async (resource: string, name: string): Promise<Obj> => JSON.parse(ok(await run(['get', resource, name, '-n', ns, '-o', 'json', '--show-managed-fields']), cp())) as Obj;
      const dataOf = async (name: string): Promise<unknown> => (await getJSON('configmap', name))['data'];
      before(async () => {
        kc = new Kubectl(cp);
        ns = uniqueName(`ssa${minor}`);
        ok(await kc.createNamespace(ns), cp());
      });
      after(() => kc.dispose());

      for (const k of kinds) {
        it(`${k.title}: created by apply, owned by "kubectl" (Apply); managedFields shown only on request`, async () => {
          const name = uniqueName('k');
          assert.equal(ok(await ssa(k.manifest(name, ns)), cp()), `${k.printed}/${name} serverside-applied`);
          assertManagedFieldsSorted(await getJSON(k.resource, name), [entry('kubectl', 'Apply', k.apiVersion, k.fieldsV1)]);
          const plain = JSON.parse(ok(await run(['get', k.resource, name, '-n', ns, '-o', 'json']), cp())) as Obj;
          assert.equal(managedFieldsOf(plain).length, 0, 'kubectl hides managedFields without --show-managed-fields');
          assert.equal(ok(await ssa(k.manifest(name, ns)), cp()), `${k.printed}/${name} serverside-applied`, 'applying again is accepted');
        });
      }

      it('two field managers: 409 naming each conflicting field, then --force-conflicts takes them over', async () => {
        const name = uniqueName('conflict');
        ok(await ssa(configMap(name, ns, { key: 'a', other: 'a' }), '--field-manager=mgr-a'), cp());
        fails(await ssa(configMap(name, ns, { key: 'b' }), '--field-manager=mgr-b'), `error: ${oneConflictMessage('"mgr-a"', '.data.key')}\n${KUBECTL_CONFLICT_ADVICE}`);
        fails(
          await ssa(configMap(name, ns, { key: 'b', other: 'b' }), '--field-manager=mgr-b'),
          `error: Apply failed with 2 conflicts: conflicts with "mgr-a":\n- .data.key\n- .data.other\n${KUBECTL_CONFLICT_ADVICE}`,
        );
        assert.deepEqual(await dataOf(name), { key: 'a', other: 'a' }, 'a refused apply changes nothing');
        assert.equal(ok(await ssa(configMap(name, ns, { key: 'b', other: 'b' }), '--field-manager=mgr-b', '--force-conflicts'), cp()), `configmap/${name} serverside-applied`);
        const cm = await getJSON('configmap', name);
        assert.deepEqual(cm['data'], { key: 'b', other: 'b' });
        // mgr-a owned nothing else: its emptied entry is gone.
        assertManagedFieldsSorted(cm, [entry('mgr-b', 'Apply', 'v1', '{"f:data":{"f:key":{},"f:other":{}}}')]);
      });

      it('a field dropped from the manifest is removed when no other manager owns it', async () => {
        const name = uniqueName('drop');
        ok(await ssa(configMap(name, ns, { keep: '1', drop: '2' })), cp());
        ok(await ssa(configMap(name, ns, { keep: '1' })), cp());
        const cm = await getJSON('configmap', name);
        assert.deepEqual(cm['data'], { keep: '1' });
        assertManagedFieldsSorted(cm, [entry('kubectl', 'Apply', 'v1', '{"f:data":{"f:keep":{}}}')]);
      });

      it('a dropped field another manager co-owns (same value, no conflict) is kept', async () => {
        const name = uniqueName('shared');
        ok(await ssa(configMap(name, ns, { keep: '1', shared: 's' }), '--field-manager=mgr-a'), cp());
        ok(await ssa(configMap(name, ns, { shared: 's' }), '--field-manager=mgr-b'), cp());
        ok(await ssa(configMap(name, ns, { keep: '1' }), '--field-manager=mgr-a'), cp());
        const cm = await getJSON('configmap', name);
        assert.deepEqual(cm['data'], { keep: '1', shared: 's' });
        const byManager = new Map(managedFieldsOf(cm).map((e) => [e.manager, JSON.stringify(e.fieldsV1)]));
        assert.equal(byManager.get('mgr-a'), '{"f:data":{"f:keep":{}}}');
        assert.equal(byManager.get('mgr-b'), '{"f:data":{"f:shared":{}}}');
      });

      it('--dry-run=server answers as a real apply and stores nothing', async () => {
        const name = uniqueName('dry');
        assert.equal(ok(await ssa(configMap(name, ns, { key: 'v1' }), '--dry-run=server'), cp()), `configmap/${name} serverside-applied (server dry run)`);
        fails(await run(['get', 'configmap', name, '-n', ns]), `Error from server (NotFound): configmaps "${name}" not found`);
        ok(await ssa(configMap(name, ns, { key: 'v1' })), cp());
        const before = await getJSON('configmap', name);
        assert.equal(ok(await ssa(configMap(name, ns, { key: 'v2', more: 'x' }), '--dry-run=server'), cp()), `configmap/${name} serverside-applied (server dry run)`);
        const afterDry = await getJSON('configmap', name);
        assert.deepEqual(afterDry['data'], { key: 'v1' });
        assert.deepEqual(managedFieldsOf(afterDry), managedFieldsOf(before));
        assert.equal((afterDry['metadata'] as Obj)['resourceVersion'], (before['metadata'] as Obj)['resourceVersion']);
      });

      it('client-side apply, then --server-side: no conflict on the user’s own fields; the client-side manager is migrated', async () => {
        const name = uniqueName('csa');
        assert.equal(ok(await run(['apply', '-f', '-'], configMap(name, ns, { key: 'v1' })), cp()), `configmap/${name} created`);
        const lastApplied = '{"f:data":{".":{},"f:key":{}},"f:metadata":{"f:annotations":{".":{},"f:kubectl.kubernetes.io/last-applied-configuration":{}}}}';
        assertManagedFieldsSorted(await getJSON('configmap', name), [entry('kubectl-client-side-apply', 'Update', 'v1', lastApplied)]);
        // A new value for a field the user applied client-side: the last-applied annotation says it is theirs.
        assert.equal(ok(await ssa(configMap(name, ns, { key: 'v2' })), cp()), `configmap/${name} serverside-applied`);
        const cm = await getJSON('configmap', name);
        assert.deepEqual(cm['data'], { key: 'v2' });
        assertManagedFieldsSorted(cm, [
          entry('kubectl-last-applied', 'Apply', 'v1', '{"f:metadata":{"f:annotations":{"f:kubectl.kubernetes.io/last-applied-configuration":{}}}}', undefined, true),
          entry('kubectl', 'Apply', 'v1', '{"f:data":{"f:key":{}}}'),
        ]);
        // kube keeps the annotation in step with what kubectl applied server-side.
        const annotations = (cm['metadata'] as Obj)['annotations'] as Record<string, string>;
        const recorded = JSON.parse(annotations['kubectl.kubernetes.io/last-applied-configuration'] ?? '{}') as Obj;
        assert.deepEqual(recorded['data'], { key: 'v2' });
        // From now on the user is an applier like any other: dropping the key removes it.
        ok(await ssa(configMap(name, ns, { other: 'o' })), cp());
        assert.deepEqual(await dataOf(name), { other: 'o' });
      });

      it('get -o yaml --show-managed-fields prints the manager, operation and FieldsV1', async () => {
        const name = uniqueName('yaml');
        ok(await ssa(configMap(name, ns, { key: 'v1' }, { app: 'ssa' })), cp());
        const out = ok(await run(['get', 'configmap', name, '-n', ns, '-o', 'yaml', '--show-managed-fields']), cp());
        const block = new RegExp(
          [
            '  managedFields:',
            '  - apiVersion: v1',
            '    fieldsType: FieldsV1',
            '    fieldsV1:',
            '      f:data:',
            '        f:key: \\{\\}',
            '      f:metadata:',
            '        f:labels:',
            '          f:app: \\{\\}',
            '    manager: kubectl',
            '    operation: Apply',
            '    time: "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"',
            '',
          ].join('\n'),
        );
        assert.match(out, block);
        const plain = ok(await run(['get', 'configmap', name, '-n', ns, '-o', 'yaml']), cp());
        assert.doesNotMatch(plain, /managedFields/);
      });
    });
  }
});
