import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from 'yaml';
import { setCustomResourceDefinitionDefaults } from '../../apis/apiextensions/v1/defaults.js';
import { CustomResourceDefinitionStrategy } from '../../apis/apiextensions/v1/strategy.js';
import type { CustomResourceDefinition } from '../../apis/apiextensions/v1/types.js';
import { generate } from '../../generator/codegen.js';
import { printYAML } from '../../generator/print/yaml.js';
import { formatFieldError } from '../../runtime/apimachinery/validation/field.js';
import { SchemaValidator } from '../../runtime/apimachinery/validation/schema-validator.js';
import type { JSONSchemaProps } from '../../generator/model/schema.js';
import { ok, until } from '../integration/assertions.js';
import { ControlPlane } from '../integration/harness.js';
import { HttpsClient } from '../integration/https.js';
import { Kubectl, kubectlUnavailable } from '../integration/kubectl.js';
import { MANIFEST_GROUP, TYPED_LOOKING, writeManifestGroup } from './crd-manifest-fixture.js';
import { ROOT, scratchProject } from './harness.js';

// Every exported CRD (generated/crds/*.yaml as shipped, and those of a scratch group with every
// marker) passes the validation this server runs on a CRD create (defaulting, PrepareForCreate,
// then kube's ValidateCustomResourceDefinition port), and installs unchanged through kubectl
// into a running control plane, where it becomes Established with the schema as written.

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/** File name → YAML text of every exported CRD. */
const manifests = new Map<string, string>();

before(async () => {
  for (const name of readdirSync(join(ROOT, 'generated/crds'))) manifests.set(name, readFileSync(join(ROOT, 'generated/crds', name), 'utf8'));
  const project = scratchProject({ withApis: false });
  try {
    writeManifestGroup(project);
    for (const f of (await generate(project.root)).files) {
      if (f.path.startsWith(`generated/crds/${MANIFEST_GROUP}_`)) manifests.set(basename(f.path), f.text);
    }
  } finally {
    project.dispose();
  }
});

/** As kubectl reads the manifest: YAML 1.1. */
const decode = (text: string): CustomResourceDefinition => parse(text, { version: '1.1' }) as CustomResourceDefinition;

test('every exported CRD passes the validation of a CRD create', () => {
  assert.ok(manifests.size >= 6, [...manifests.keys()].join(', '));
  for (const [name, text] of manifests) {
    const crd = decode(text);
    setCustomResourceDefinitionDefaults(crd);
    CustomResourceDefinitionStrategy.prepareForCreate(crd);
    assert.deepEqual(CustomResourceDefinitionStrategy.validate(crd).map(formatFieldError), [], name);
  }
});

test('exclusive bounds are OpenAPI v3.0 flags beside the bound, as in kube', () => {
  const validator = new SchemaValidator();
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: {
      r: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: false },
      n: { type: 'integer', maximum: 10, exclusiveMaximum: true },
    },
  };
  const errors = (value: unknown): string[] => validator.validate(schema, value).map(formatFieldError);
  assert.deepEqual(errors({ r: 0, n: 10 }), ['r: Invalid value: 0: r in body should be greater than 0', 'n: Invalid value: 10: n in body should be less than 10']);
  assert.deepEqual(errors({ r: 1, n: 9 }), []);
});

describe('installed into a running control plane with kubectl', { skip: kubectlUnavailable() ?? false }, () => {
  let cp: ControlPlane;
  let client: HttpsClient;
  let kubectl: Kubectl;
  let dir: string;
  before(async () => {
    cp = await ControlPlane.start({ backend: 'sqlite' });
    client = new HttpsClient(cp.credentials);
    kubectl = new Kubectl(() => cp);
    dir = mkdtempSync(join(tmpdir(), 'crd-manifests-'));
  });
  after(async () => {
    kubectl.dispose();
    client.close();
    await cp.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('kubectl reads every quoted string back as the string written (go-yaml v2), as key and as value', async () => {
    // As annotation values (all of them) and keys (those an annotation key may be).
    const annotations = {
      ...Object.fromEntries(TYPED_LOOKING.map((s, i) => [`value-${i}`, s])),
      ...Object.fromEntries(TYPED_LOOKING.filter((s) => /^[-._a-zA-Z0-9]+$/.test(s)).map((s) => [s, s])),
    };
    const file = join(dir, 'namespace.yaml');
    writeFileSync(file, printYAML({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'typed-looking', annotations } }));
    const out = JSON.parse(ok(await kubectl.run(['create', '--dry-run=client', '--validate=false', '-o', 'json', '-f', file]), cp)) as { metadata: { annotations: Record<string, unknown> } };
    assert.deepEqual(out.metadata.annotations, annotations);
  });

  test('kubectl creates every exported CRD unchanged; each becomes Established with the schema as written', async () => {
    // This control plane serves the groups of apis/ itself, and a CRD may not take names a group
    // serves already (the wardle CRDs are for installing into another cluster).
    const builtInGroups = new Set<string>();
    for (const text of manifests.values()) {
      const group = decode(text).spec.group;
      if ((await client.request({ path: `/apis/${group}` })).status === 200) builtInGroups.add(group);
    }
    assert.ok(!builtInGroups.has(MANIFEST_GROUP));
    for (const [name, text] of manifests) {
      const written = decode(text);
      const crdName = written.metadata!.name!;
      const builtIn = builtInGroups.has(written.spec.group);
      const file = join(dir, name);
      writeFileSync(file, text);
      ok(await kubectl.run(['create', '-f', file]), cp);
      const served = await until(
        `${crdName} ${builtIn ? 'refused its names' : 'Established'}`,
        async () => {
          const crd = (await client.json('GET', `${CRDS}/${crdName}`)).body as unknown as CustomResourceDefinition;
          const established = crd.status?.conditions?.find((c) => c.type === 'Established');
          if (builtIn) return established?.status === 'False' ? crd : undefined;
          return established?.status === 'True' ? crd : undefined;
        },
        60_000,
      );
      if (builtIn) {
        assert.match(served.status!.conditions!.find((c) => c.type === 'NamesAccepted')!.message ?? '', /is already in use/, name);
      }
      assert.deepEqual(
        served.spec.versions.map((v) => v.schema),
        written.spec.versions.map((v) => v.schema),
        name,
      );
      const defaulted = decode(text);
      setCustomResourceDefinitionDefaults(defaulted);
      assert.deepEqual(served.spec.conversion, defaulted.spec.conversion, name);
    }
    assert.ok([...manifests.values()].filter((t) => t.includes(`group: ${MANIFEST_GROUP}`)).length >= 4);
  });

  test('custom resources with y/n values are stored; a version the webhook placeholder must convert fails loudly', async () => {
    const sw = { apiVersion: `${MANIFEST_GROUP}/v1`, kind: 'Switch', metadata: { name: 'lights' }, spec: { answer: 'y', word: 'no', on: 'off' } };
    const swFile = join(dir, 'switch.yaml');
    writeFileSync(swFile, printYAML(sw));
    ok(
      await until(
        'the Switch resource is served',
        async () => {
          const r = await kubectl.run(['create', '-f', swFile]);
          return r.code === 0 ? r : undefined;
        },
        60_000,
      ),
      cp,
    );
    const stored = (await client.json('GET', `/apis/${MANIFEST_GROUP}/v1beta1/switches/lights`)).body as { apiVersion: string; spec: Record<string, string> };
    assert.deepEqual([stored.apiVersion, stored.spec], [`${MANIFEST_GROUP}/v1beta1`, { answer: 'y', word: 'no', on: 'off' }]);

    const gadget = { apiVersion: `${MANIFEST_GROUP}/v1`, kind: 'Gadget', metadata: { name: 'g', namespace: 'default' }, spec: { team: 'a', owner: 'b', replicas: 2 } };
    const created = await until(
      'the Gadget resource is served',
      async () => {
        const r = await client.json('POST', `/apis/${MANIFEST_GROUP}/v1/namespaces/default/gadgets`, gadget);
        return r.status === 404 ? undefined : r;
      },
      60_000,
    );
    assert.equal(created.status, 201, JSON.stringify(created.body));
    // OpenAPI v3.0's exclusive bounds (exclusiveMinimum: true beside minimum), as kube reads them.
    const bounded = await client.json('POST', `/apis/${MANIFEST_GROUP}/v1/namespaces/default/gadgets`, { ...gadget, metadata: { name: 'g2' }, spec: { ...gadget.spec, ratio: 0 } });
    assert.equal(bounded.status, 422, JSON.stringify(bounded.body));
    assert.match(String(bounded.body['message']), /spec\.ratio: Invalid value: 0: spec\.ratio in body should be greater than 0/);
    const other = await client.json('GET', `/apis/${MANIFEST_GROUP}/v1beta1/namespaces/default/gadgets/g`);
    assert.equal(other.status, 500, JSON.stringify(other.body));
    assert.match(String(other.body['message']), /conversion webhook for manifests\.example\.com\/v1, Kind=Gadget failed: .*webhook-service/);
  });
});
