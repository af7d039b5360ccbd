import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT, scratchProject, type ScratchProject } from './harness.js';

// Importing third-party CRDs (apiextensions.k8s.io/v1 YAML) with `--crd`
// yields TypeScript types and typed clients, listers and informers that a
// program can use; the result passes verify-codegen.
const fixture = (name: string): string => join(ROOT, 'test/codegen/fixtures/crds', name);
const CERTS = fixture('certificates.yaml');
const RELEASES = fixture('releases.yaml');
const POLICIES = fixture('clusterpolicies.yaml');

let project: ScratchProject;
let output: string;
before(() => {
  project = scratchProject();
  // The documented form: one --crd followed by every manifest.
  output = project.codegen('--crd', CERTS, RELEASES, POLICIES);
});
after(() => project.dispose());

test('codegen reports every imported CRD group version', () => {
  assert.match(output, /certs\.example\.io\/v1 \(imported CRD\): Certificate \(storage, hub\)/);
  assert.match(output, /deploy\.example\.org\/v1beta1 \(imported CRD\): Release \(storage, hub\)/);
  assert.match(output, /policy\.example\.net\/v1 \(imported CRD\): ClusterPolicy \(storage, hub\)/);
  assert.match(output, /policy\.example\.net\/v1alpha1 \(imported CRD\): ClusterPolicy \(deprecated\)\n/);
  for (const f of ['certificates.yaml', 'releases.yaml', 'clusterpolicies.yaml']) {
    assert.ok(existsSync(join(project.root, 'apis/crds', f)), `apis/crds/${f} kept`);
  }
  for (const f of [
    'types/certs/v1.ts',
    'types/deploy/v1beta1.ts',
    'types/policy/v1.ts',
    'types/policy/v1alpha1.ts',
    'clientset/certs/v1/index.ts',
    'listers/certs/v1/certificate.ts',
    'informers/certs/v1/certificate.ts',
    'clientset/policy/v1alpha1/index.ts',
    'listers/policy/v1/clusterpolicy.ts',
    'informers/deploy/v1beta1/release.ts',
  ]) {
    assert.ok(existsSync(join(project.root, 'generated', f)), `generated/${f} exists`);
  }
});

test('generated types follow the schemas: required, enums, int-or-string, free-form values', () => {
  const certs = readFileSync(join(project.root, 'generated/types/certs/v1.ts'), 'utf8');
  assert.match(certs, /secretName: string;/);
  assert.match(certs, /commonName\?: string;/);
  assert.match(certs, /'RSA' \| 'ECDSA' \| 'Ed25519'/);
  const releases = readFileSync(join(project.root, 'generated/types/deploy/v1beta1.ts'), 'utf8');
  assert.match(releases, /maxUnavailable\?: number \| string;/);
  assert.match(releases, /values\?: \{ \[key: string\]: unknown \};/);
});

test('verify-codegen passes after importing the CRDs', () => {
  const result = project.verify();
  assert.equal(result.ok, true, result.output);
});

const PROGRAM = (body: string): string => `import { Clientset, SharedInformerFactory } from '../generated/index.js';
import type { SharedInformerFactoryCore } from '../runtime/client/index.js';
import type { RESTClient } from '../runtime/client/index.js';
import type { Certificate } from '../generated/types/certs/v1.js';
export async function main(rest: RESTClient, core: SharedInformerFactoryCore): Promise<unknown> {
  const cs = new Clientset(rest);
${body}
}
`;

test('a program using the imported typed clients, listers and informers type-checks', () => {
  project.write(
    'app/main.ts',
    PROGRAM(`
  const certs = cs.certsV1().certificates('ns');
  const cert: Certificate = {
    apiVersion: 'certs.example.io/v1', kind: 'Certificate', metadata: { name: 'web' },
    spec: {
      secretName: 'web-tls', dnsNames: ['example.com'], usages: ['server auth', 'digital signature'],
      issuerRef: { name: 'letsencrypt', kind: 'ClusterIssuer' },
      privateKey: { algorithm: 'ECDSA', size: 256, rotationPolicy: 'Always' },
      additionalOutputFormats: [{ type: 'CombinedPEM' }],
    },
  };
  const created = await certs.create(cert);
  created.status = { conditions: [{ type: 'Ready', status: 'True' }] };
  await certs.updateStatus(created);
  const releases = cs.deployV1beta1().releases('apps');
  await releases.create({
    apiVersion: 'deploy.example.org/v1beta1', kind: 'Release', metadata: { name: 'r' },
    spec: { chart: 'nginx', replicas: 3, strategy: { maxUnavailable: '25%', maxSurge: 1 }, values: { image: { tag: 'v1' } },
      template: { apiVersion: 'v1', kind: 'ConfigMap', data: { a: 'b' } } },
  });
  const v1 = await cs.policyV1().clusterpolicies().create({
    apiVersion: 'policy.example.net/v1', kind: 'ClusterPolicy', metadata: { name: 'p' },
    spec: { validationFailureAction: 'Enforce', rules: [{ name: 'no-latest', match: { kinds: ['Pod'] } }] },
  });
  const old = await cs.policyV1alpha1().clusterpolicies().list();
  const factory = new SharedInformerFactory(cs, core);
  const cached = factory.certs().v1().certificates().lister().list();
  return [v1.spec?.rules.length, old.items.length, cached.length];`),
  );
  const result = project.typecheck();
  assert.equal(result.ok, true, result.output);
});

test('a wrong field type on an imported kind is rejected by tsc', () => {
  project.write(
    'app/main.ts',
    PROGRAM(`
  return cs.certsV1().certificates('ns').create({
    apiVersion: 'certs.example.io/v1', kind: 'Certificate', metadata: { name: 'web' },
    spec: { secretName: 42, issuerRef: { name: 'x' } },
  });`),
  );
  const result = project.typecheck();
  assert.equal(result.ok, false, 'secretName: number must not type-check');
  assert.match(result.output, /app\/main\.ts.*Type 'number' is not assignable to type 'string'/);
});

test('an enum value outside the schema and a cluster-scoped namespace argument are rejected by tsc', () => {
  project.write(
    'app/main.ts',
    PROGRAM(`
  await cs.certsV1().certificates('ns').create({
    apiVersion: 'certs.example.io/v1', kind: 'Certificate', metadata: { name: 'web' },
    spec: { secretName: 's', issuerRef: { name: 'x' }, privateKey: { algorithm: 'DSA' } },
  });
  return cs.policyV1().clusterpolicies('ns');`),
  );
  const result = project.typecheck();
  assert.equal(result.ok, false);
  assert.match(result.output, /'"DSA"' is not assignable/);
  assert.match(result.output, /Expected 0 arguments, but got 1/);
});
