// Installing CRDs the way Gateway API and cert-manager tell users to: `kubectl apply
// --server-side -f <their CRD manifests>`, with the manifests of this repository's fixtures, on
// SQLite and etcd. The CustomResourceDefinition kind is typed from its published OpenAPI
// definition (JSONSchemaProps as a recursive named type) as kube-apiserver types it, so:
// - the installer's Apply entry is the field set kube records: `spec.versions` is an atomic list
//   (kube's CRD types give it no list type), one leaf `f:versions: {}`, whatever the schemas hold;
// - re-applying the same manifest is accepted and changes no ownership;
// - a second manager changing only the message of one x-kubernetes-validations rule conflicts on
//   `.spec.versions` (the atomic list), in kubectl's words, and changes nothing;
// - `--force-conflicts` moves `.spec.versions` to that manager and the stored rule has its message;
// - a duplicate rule in a version's schema is refused (x-kubernetes-validations is a list map
//   keyed by rule in JSONSchemaProps), not stored.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { parse } from 'yaml';
import { fails, ok } from '../assertions.js';
import { describeBackends, repoRoot } from '../harness.js';
import { Kubectl, kubectlUnavailable, type KubectlResult } from '../kubectl.js';
import { KUBECTL_CONFLICT_ADVICE, managedFieldsOf, oneConflictMessage } from './managed.js';

type Obj = Record<string, unknown>;
interface Rule {
  rule: string;
  message?: string;
}
interface CRD {
  metadata: { name: string };
  spec: { versions: Array<{ name: string; schema: { openAPIV3Schema: Obj } }> };
}

const FIXTURES = join(repoRoot, 'test/codegen/fixtures/crds');

/** A CRD manifest of the fixtures, with the field set kube records for its installer. */
const manifests: ReadonlyArray<{ title: string; file: string; fieldsV1: string }> = [
  {
    title: 'Gateway API GatewayClass',
    file: 'gateway-api/standard/gateway.networking.k8s.io_gatewayclasses.yaml',
    fieldsV1:
      '{"f:metadata":{"f:annotations":{"f:api-approved.kubernetes.io":{},"f:gateway.networking.k8s.io/bundle-version":{},"f:gateway.networking.k8s.io/channel":{}}},' +
      '"f:spec":{"f:group":{},"f:names":{"f:categories":{},"f:kind":{},"f:listKind":{},"f:plural":{},"f:shortNames":{},"f:singular":{}},"f:scope":{},"f:versions":{}}}',
  },
  {
    title: 'cert-manager ClusterIssuer',
    file: 'cert-manager/cert-manager.io_clusterissuers.yaml',
    fieldsV1:
      '{"f:metadata":{"f:annotations":{"f:controller-gen.kubebuilder.io/version":{}}},' +
      '"f:spec":{"f:group":{},"f:names":{"f:categories":{},"f:kind":{},"f:listKind":{},"f:plural":{},"f:shortNames":{},"f:singular":{}},"f:scope":{},"f:versions":{}}}',
  },
];

/** The first x-kubernetes-validations list found in a schema, depth first. */
function firstRules(s: unknown): Rule[] | undefined {
  if (typeof s !== 'object' || s === null) return undefined;
  if (Array.isArray(s)) {
    for (const x of s) {
      const r = firstRules(x);
      if (r !== undefined) return r;
    }
    return undefined;
  }
  const own = Object.hasOwn(s, 'x-kubernetes-validations') ? (s as Obj)['x-kubernetes-validations'] : undefined;
  if (Array.isArray(own) && own.length > 0) return own as Rule[];
  for (const v of Object.values(s)) {
    const r = firstRules(v);
    if (r !== undefined) return r;
  }
  return undefined;
}

/** The fieldsV1 of `manager`'s entry as JSON text, or undefined when it has none. */
function fieldsOf(crd: unknown, manager: string): string | undefined {
  const e = managedFieldsOf(crd).find((m) => m.manager === manager);
  if (e === undefined) return undefined;
  assert.equal(e.operation, 'Apply');
  assert.equal(e.apiVersion, 'apiextensions.k8s.io/v1');
  return JSON.stringify(e.fieldsV1);
}

describeBackends('kubectl apply --server-side of real CRD manifests', (cp) => {
  let kc: Kubectl;
  before(() => {
    kc = new Kubectl(cp);
  });
  after(() => kc.dispose());

  const skip = kubectlUnavailable() ?? false;
  const run = (args: string[], stdin: unknown): Promise<KubectlResult> => kc.run(args, { stdin: JSON.stringify(stdin), timeoutMs: 120_000 });
  const ssa = (crd: unknown, ...flags: string[]): Promise<KubectlResult> => run(['apply', '--server-side', ...flags, '-f', '-'], crd);
  const getJSON = async (name: string): Promise<Obj> => JSON.parse(ok(await kc.run(['get', 'crd', name, '-o', 'json', '--show-managed-fields']), cp())) as Obj;

  for (const m of manifests) {
    it(`${m.title}: installed, re-applied, then a rule's message by another manager conflicts on .spec.versions until forced`, { skip }, async () => {
      const crd = parse(readFileSync(join(FIXTURES, m.file), 'utf8')) as CRD;
      const name = crd.metadata.name;
      const printed = `customresourcedefinition.apiextensions.k8s.io/${name} serverside-applied`;
      assert.equal(ok(await ssa(crd, '--field-manager=installer'), cp()), printed);
      assert.equal(fieldsOf(await getJSON(name), 'installer'), m.fieldsV1);
      assert.equal(ok(await ssa(crd, '--field-manager=installer'), cp()), printed, 'the same manifest again');
      assert.equal(fieldsOf(await getJSON(name), 'installer'), m.fieldsV1);

      const tuned = structuredClone(crd);
      const rules = firstRules(tuned.spec.versions[0]?.schema.openAPIV3Schema);
      assert.ok(rules?.[0] !== undefined, `${m.file} has an x-kubernetes-validations rule`);
      const rule = rules[0].rule;
      rules[0].message = 'tuned message';
      fails(await ssa(tuned, '--field-manager=tuner'), `error: ${oneConflictMessage('"installer"', '.spec.versions')}\n${KUBECTL_CONFLICT_ADVICE}`);
      const unchanged = (await getJSON(name)) as unknown as CRD;
      assert.notEqual(firstRules(unchanged.spec.versions[0]?.schema.openAPIV3Schema)?.[0]?.message, 'tuned message', 'a refused apply changes nothing');

      assert.equal(ok(await ssa(tuned, '--field-manager=tuner', '--force-conflicts'), cp()), printed);
      const forced = await getJSON(name);
      const stored = firstRules((forced as unknown as CRD).spec.versions[0]?.schema.openAPIV3Schema)?.[0];
      assert.deepEqual(stored, { rule, message: 'tuned message' });
      assert.equal(fieldsOf(forced, 'tuner'), m.fieldsV1, 'the tuner applied the whole manifest: it co-owns the rest and owns .spec.versions');
      assert.equal(fieldsOf(forced, 'installer'), m.fieldsV1.replace(',"f:versions":{}', ''), 'the installer lost .spec.versions only');
    });
  }

  it('a duplicate rule in a version schema is refused: x-kubernetes-validations is keyed by rule', { skip }, async () => {
    const crd = parse(readFileSync(join(FIXTURES, manifests[0]?.file ?? ''), 'utf8')) as CRD;
    const schema = crd.spec.versions[0]?.schema.openAPIV3Schema;
    assert.ok(schema !== undefined);
    schema['x-kubernetes-validations'] = [{ rule: 'true' }, { rule: 'true', message: 'twice' }];
    fails(
      await ssa(crd, '--field-manager=dup'),
      'Error from server: failed to create typed patch object (/gatewayclasses.gateway.networking.k8s.io; apiextensions.k8s.io/v1, Kind=CustomResourceDefinition): ' +
        '.spec.versions[0].schema.openAPIV3Schema.x-kubernetes-validations: duplicate entries for key [rule="true"]',
    );
  });
});
