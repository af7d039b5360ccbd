import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, test } from 'node:test';
import { CodegenCache } from '../../generator/crd-import/cache.js';
import { generateKubernetesClients, KUBERNETES_OUTPUT } from '../../generator/openapi-import/index.js';
import type { PrintedFile } from '../../generator/print/index.js';
import { ROOT } from './harness.js';
import { clientProject, type ClientProject } from './openapi-import-project.js';

// The clients of every vendored group version compile (tsc over the generated tree and a
// controller's use of it), are deterministic, and hold the reviewed Lease files as they are.

let files: PrintedFile[];
let project: ClientProject;
before(() => {
  files = generateKubernetesClients();
  project = clientProject(files);
});
after(() => project.dispose());

test('generation is deterministic and stays under generated/kubernetes/', () => {
  const again = generateKubernetesClients();
  assert.deepEqual(
    again.map((f) => f.path),
    files.map((f) => f.path),
  );
  assert.ok(again.every((f, i) => f.text === files[i]!.text));
  for (const f of files) assert.ok(f.path.startsWith(`${KUBERNETES_OUTPUT}/`), f.path);
  const paths = new Set(files.map((f) => relative(KUBERNETES_OUTPUT, f.path)));
  for (const p of [
    'index.ts',
    'clientset/index.ts',
    'clientset/core/v1/pod.ts',
    'clientset/apps/v1/deployment.ts',
    'listers/batch/v1/job.ts',
    'informers/networking/v1/ingress.ts',
    'informers/factory.ts',
    'applyconfigurations/apps/v1/deployment.ts',
    'types/core/v1.ts',
    'types/autoscaling/v2.ts',
  ]) {
    assert.ok(paths.has(p), `${p} is generated`);
  }
  // Binding is create-only and ComponentStatus has no watch: clients, but no informers (informer-gen's rule).
  assert.ok(paths.has('clientset/core/v1/binding.ts'));
  assert.ok(!paths.has('informers/core/v1/binding.ts'));
  assert.ok(!paths.has('informers/core/v1/componentstatus.ts'));
});

test('types keep kube names and references: one declaration per definition, shared across groups', () => {
  const text = (p: string): string => files.find((f) => f.path === `${KUBERNETES_OUTPUT}/${p}`)!.text;
  const core = text('types/core/v1.ts');
  assert.match(core, /^export interface PodSpec \{$/m);
  assert.match(core, /^ {2}containers: Container\[\];$/m);
  assert.match(core, /^ {2}port: IntOrString;$/m);
  assert.match(core, /^ {2}limits\?: \{ \[key: string\]: Quantity \};$/m);
  assert.match(core, /^import type \{ [^}]*\bIntOrString\b[^}]*\bObjectMeta\b[^}]*\bQuantity\b[^}]*\bTime\b[^}]*\} from 'kube-ts-apiserver\/apis\/meta\/v1';$/m);
  assert.equal((core.match(/^export interface PodSpec /gm) ?? []).length, 1);
  const apps = text('types/apps/v1.ts');
  assert.match(apps, /^import type \{ [^}]*\bPodTemplateSpec\b[^}]*\} from '\.\.\/core\/v1\.js';$/m);
  assert.match(apps, /^ {2}template: PodTemplateSpec;$/m);
  assert.doesNotMatch(apps, /^export interface PodSpec /m);
  // events.k8s.io/v1 declares its own Event; core/v1's reaches it only where referenced.
  assert.match(text('types/events/v1.ts'), /^export interface Event \{$/m);
});

test("the reviewed Lease files are the full import's", () => {
  const golden = join(ROOT, 'test/codegen/fixtures/openapi-import');
  const walk = (dir: string): string[] => readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
  const perGroup = walk(golden).filter((g) => g.includes('/coordination/'));
  assert.ok(perGroup.length >= 7);
  for (const g of perGroup) {
    const rel = relative(golden, g).replace(/\.golden$/, '');
    assert.equal(files.find((f) => f.path === `${KUBERNETES_OUTPUT}/${rel}`)?.text, readFileSync(g, 'utf8'), rel);
  }
});

test('the generated tree and a controller using it type-check with tsc', () => {
  project.write(
    'app/controller.ts',
    `import { Kubernetes, KubernetesInformerFactory } from '../generated/kubernetes/index.js';
import { extractDeployment, type DeploymentApplyConfiguration } from '../generated/kubernetes/applyconfigurations/apps/v1/index.js';
import type { Pod } from '../generated/kubernetes/types/core/v1.js';
import type { DeepReadonly } from 'kube-ts-apiserver/client';
import type { RESTClient, SharedInformerFactoryCore } from 'kube-ts-apiserver/client';

export async function reconcile(rest: RESTClient, base: SharedInformerFactoryCore): Promise<void> {
  const kube = new Kubernetes(rest);
  const factory = new KubernetesInformerFactory(kube, base);
  const pods = factory.core().v1().pods();
  factory.start();
  await factory.waitForCacheSync();
  const running: readonly DeepReadonly<Pod>[] = pods.lister().namespace('default').list();
  const web = await kube.appsV1().deployments('default').get('web');
  const image: string | undefined = web.spec?.template.spec?.containers[0]?.image;
  const replicas: number | undefined = web.spec?.replicas;
  const apply: DeploymentApplyConfiguration = extractDeployment(web, 'controller');
  apply.spec = { replicas: running.length, template: { spec: { containers: [{ name: 'web', image: image ?? 'nginx' }] } } };
  await kube.appsV1().deployments('default').apply(apply, { fieldManager: 'controller' });
  await kube.appsV1().deployments('default').updateScale('web', { spec: { replicas: (replicas ?? 0) + 1 } });
  await kube.coordinationV1().leases('kube-system').create({ metadata: { name: 'lock' }, spec: { holderIdentity: 'me', leaseDurationSeconds: 15 } });
  await kube.coreV1().namespaces().delete('old');
  await kube.eventsV1().events('default').list({ fieldSelector: 'regarding.name=web' });
  // Accessors are the resource names, as the generator names them for every group (client-go camel-cases them).
  await kube.autoscalingV2().horizontalpodautoscalers('default').get('web');
  await kube.policyV1().poddisruptionbudgets('default').list();
}
`,
  );
  const result = project.typecheck();
  assert.equal(result.ok, true, result.output);
});

test('a cached generation gives the same files, from the cache', () => {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-import-cache-'));
  try {
    const cache = CodegenCache.open(dir);
    const first = generateKubernetesClients({ cache });
    assert.deepEqual(first, files);
    const started = performance.now();
    const second = generateKubernetesClients({ cache });
    assert.ok(performance.now() - started < 3000, 'read from the cache');
    assert.deepEqual(second, files);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
