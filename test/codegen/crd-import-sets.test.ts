import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { after, before, test } from 'node:test';
import { listFiles } from '../../generator/write.js';
import { ROOT, scratchProject, type ScratchProject } from './harness.js';

// The CRD sets people run (fixtures copied from their repositories, see
// fixtures/crds/README.md) import with one --crd, type-check, and are usable
// through the typed clients: Gateway API (standard channel), cert-manager,
// prometheus-operator and Argo CD, 34 kinds from 8.5 MB of YAML, beside this repository's apis/.
const SETS = ['gateway-api/standard', 'cert-manager', 'prometheus-operator', 'argo-cd'];
const files = SETS.flatMap((set) => {
  const dir = join(ROOT, 'test/codegen/fixtures/crds', set);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => join(dir, f));
});

let project: ScratchProject;
let output: string;
before(
  () => {
    project = scratchProject();
    output = project.codegen('--crd', ...files);
  },
  { timeout: 600_000 },
);
after(() => project.dispose());

const types = (path: string): string => readFileSync(join(project.root, 'generated/types', path), 'utf8');

test('every CRD of the four sets is imported; the file without a CRD is skipped', () => {
  assert.match(output, /skipped \S*gateway\.networking\.k8s\.io_vap_safeupgrades\.yaml: no CustomResourceDefinition in it/);
  assert.match(output, /gateway\.networking\.k8s\.io\/v1 \(imported CRD\): BackendTLSPolicy, GRPCRoute, Gateway, GatewayClass, HTTPRoute, ListenerSet, ReferenceGrant, TCPRoute, TLSRoute, UDPRoute/);
  assert.match(output, /cert-manager\.io\/v1 \(imported CRD\): Certificate, CertificateRequest, ClusterIssuer, Issuer/);
  assert.match(output, /acme\.cert-manager\.io\/v1 \(imported CRD\): Challenge, Order/);
  assert.match(output, /monitoring\.coreos\.com\/v1 \(imported CRD\): Alertmanager, PodMonitor, Probe, Prometheus, PrometheusRule, ServiceMonitor, ThanosRuler/);
  assert.match(output, /monitoring\.coreos\.com\/v1alpha1 \(imported CRD\): AlertmanagerConfig, PrometheusAgent, ScrapeConfig/);
  assert.match(output, /argoproj\.io\/v1alpha1 \(imported CRD\): AppProject, Application, ApplicationSet/);
  const kept = new Set(listFiles(join(project.root, 'apis/crds')));
  assert.deepEqual(
    files.map((f) => basename(f)).filter((f) => !kept.has(f)),
    ['gateway.networking.k8s.io_vap_safeupgrades.yaml'],
  );
});

test('types are what the schemas say, once: arrays for bounded lists, one IssuerSpec for both issuers', () => {
  const all = listFiles(join(project.root, 'generated/types'))
    .map((f) => types(f))
    .join('\n');
  // Tuples are how maxItems used to come out (a union of every length up to the bound).
  assert.doesNotMatch(all, /\[(string|number|\{)[^\]\n]*, /);
  const gateway = types('gateway/v1.ts');
  assert.match(gateway, /export interface HTTPRoute \{[^]*?\n {4}hostnames\?: string\[\];/);
  const certManager = types('certManager/v1.ts');
  assert.match(certManager, /export interface ClusterIssuer \{[^}]*\n {2}spec: IssuerSpec;/);
  assert.match(certManager, /export interface Issuer \{[^}]*\n {2}spec: IssuerSpec;/);
  assert.equal(certManager.match(/^export interface IssuerSpec \{/gm)?.length, 1);
  // The generated module is a fraction of the YAML (descriptions kept), not a copy per use.
  const yaml = statSync(join(ROOT, 'test/codegen/fixtures/crds/cert-manager/cert-manager.io_issuers.yaml')).size;
  assert.ok(certManager.length < yaml, `${certManager.length} chars of types for ${yaml} bytes of one issuer CRD`);
});

const PROGRAM = (body: string): string => `import { Clientset } from '../generated/index.js';
import type { RESTClient } from 'kube-ts-apiserver/client';
import type { HTTPRoute } from '../generated/types/gateway/v1.js';
export async function main(rest: RESTClient): Promise<unknown> {
  const cs = new Clientset(rest);
${body}
}
`;

test("a program using the four sets' typed clients type-checks, and a wrong field does not", { timeout: 600_000 }, () => {
  project.write(
    'app/main.ts',
    PROGRAM(`
  const route: HTTPRoute = {
    apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute', metadata: { name: 'web' },
    spec: {
      parentRefs: [{ name: 'gw', sectionName: 'https' }],
      hostnames: ['example.com'],
      rules: [{
        matches: [{ path: { type: 'PathPrefix', value: '/' }, method: 'GET' }],
        backendRefs: [{ name: 'web', port: 8080, weight: 1 }],
        filters: [{ type: 'RequestHeaderModifier', requestHeaderModifier: { add: [{ name: 'x', value: 'y' }] } }],
      }],
    },
  };
  await cs.gatewayV1().httproutes('default').create(route);
  const issuer = await cs.certManagerV1().clusterissuers().create({
    apiVersion: 'cert-manager.io/v1', kind: 'ClusterIssuer', metadata: { name: 'le' },
    spec: { acme: { server: 'https://acme.example/dir', privateKeySecretRef: { name: 'le-key' }, solvers: [{ http01: { ingress: { ingressClassName: 'nginx' } } }] } },
  });
  await cs.certManagerV1().issuers('ns').create({ apiVersion: 'cert-manager.io/v1', kind: 'Issuer', metadata: { name: 'copy' }, spec: issuer.spec });
  await cs.monitoringV1().servicemonitors('monitoring').create({
    apiVersion: 'monitoring.coreos.com/v1', kind: 'ServiceMonitor', metadata: { name: 'web' },
    spec: { selector: { matchLabels: { app: 'web' } }, endpoints: [{ port: 'metrics', interval: '30s' }] },
  });
  const app = await cs.argoprojV1alpha1().applications('argocd').create({
    apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name: 'guestbook' },
    spec: {
      project: 'default',
      destination: { server: 'https://kubernetes.default.svc', namespace: 'guestbook' },
      source: { repoURL: 'https://github.com/argoproj/argocd-example-apps', path: 'guestbook', targetRevision: 'HEAD' },
    },
  });
  return app.status?.sync?.status;`),
  );
  const ok = project.typecheck();
  assert.equal(ok.ok, true, ok.output);

  project.write(
    'app/main.ts',
    PROGRAM(`
  return cs.gatewayV1().httproutes('default').create({
    apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute', metadata: { name: 'web' },
    spec: { rules: [{ matches: [{ method: 'FETCH' }], backendRefs: [{ port: 8080 }] }] },
  });`),
  );
  const bad = project.typecheck();
  assert.equal(bad.ok, false);
  assert.match(bad.output, /app\/main\.ts.*'"FETCH"' is not assignable/);
  assert.match(bad.output, /app\/main\.ts.*Property 'name' is missing/);
});

test('the run after the import, with nothing changed, is up to date and writes nothing', () => {
  const mtimes = (): string[] => listFiles(join(project.root, 'generated')).map((f) => `${f} ${statSync(join(project.root, 'generated', f)).mtimeMs}`);
  const before = mtimes();
  const out = project.codegen();
  assert.match(out, /generated \d+ files \(up to date, nothing written\) for \d+ groups/);
  assert.match(out, /cert-manager\.io\/v1 \(imported CRD\): Certificate, CertificateRequest, ClusterIssuer, Issuer/);
  assert.deepEqual(mtimes(), before);
});
