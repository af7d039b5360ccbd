// Acceptance of "use it from another repository": a project made outside this repository from the
// packed package (npm pack → tarball → npm install), with the package's own scaffold command; a
// group with two versions (hub and a spoke with a renamed field, converted both ways), a status
// subresource, a CEL rule and an admission plugin; codegen and tsc in the project; its control
// plane driven with kubectl and, through its controller, with the generated typed client and
// informers; then the project's own tests. Slow (npm installs better-sqlite3 from source).
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { until } from '../integration/assertions.js';
import { repoRoot } from '../integration/harness.js';
import { outsideReferences, ProjectProcess, projectFiles, run, runOK } from './scratch.js';

const GROUP = 'shop.example.com';
const NPM_INSTALL = ['install', '--prefer-offline', '--no-audit', '--no-fund'];

/** v1alpha1 names the hub's spec.message `text`: the conversion renames it both ways. */
const SPOKE_CONVERSION = `import type { Conversion } from 'kube-ts-apiserver/runtime';
import type * as hub from '../v1/types.js';
import type { Widget } from './types.js';

/** v1alpha1 calls the hub's spec.message spec.text. */
export const WidgetConversion = {
  toHub(from: Widget): hub.Widget {
    const { spec, ...rest } = from;
    if (spec === undefined) return { ...rest, apiVersion: '${GROUP}/v1' };
    const { text, ...same } = spec;
    return { ...rest, apiVersion: '${GROUP}/v1', spec: { ...same, ...(text === undefined ? {} : { message: text }) } };
  },
  fromHub(from: hub.Widget): Widget {
    const { spec, ...rest } = from;
    if (spec === undefined) return { ...rest, apiVersion: '${GROUP}/v1alpha1' };
    const { message, ...same } = spec;
    return { ...rest, apiVersion: '${GROUP}/v1alpha1', spec: { ...same, ...(message === undefined ? {} : { text: message }) } };
  },
} satisfies Conversion<Widget, hub.Widget>;
`;

function widget(version: string, name: string, spec: Record<string, unknown>): string {
  return JSON.stringify({ apiVersion: `${GROUP}/${version}`, kind: 'Widget', metadata: { name, namespace: 'default' }, spec });
}

test('a project scaffolded from the packed package serves its group, passes its own tests and reaches nothing of this repository', { timeout: 60 * 60_000 }, async (t) => {
  const work = mkdtempSync(join(tmpdir(), 'kube-ts-scratch-'));
  const project = join(work, 'shop');
  const started: ProjectProcess[] = [];
  t.after(async () => {
    for (const p of started) await p.stop();
    rmSync(work, { recursive: true, force: true });
  });

  // The package as a registry would ship it: npm pack runs prepack (hack/build-package).
  runOK(repoRoot, 'npm', ['pack', '--pack-destination', work]);
  const tarball = readdirSync(work).find((f) => /^kube-ts-apiserver-.*\.tgz$/.test(f));
  assert.ok(tarball !== undefined, `no tarball in ${work}`);
  mkdirSync(join(project, 'vendor'), { recursive: true });
  copyFileSync(join(work, tarball), join(project, 'vendor', tarball));

  // A developer's first steps: install the package, then its scaffold (JOBS: node-gyp on every core).
  runOK(project, 'npm', [...NPM_INSTALL, `./vendor/${tarball}`], { timeoutMs: 30 * 60_000, env: { JOBS: 'max' } });
  const cli = join(project, 'node_modules/.bin/kube-ts-apiserver');
  runOK(project, cli, ['init', '--group', GROUP, '--version', 'v1', '--kind', 'Widget']);
  runOK(project, 'npm', NPM_INSTALL, { timeoutMs: 30 * 60_000 });
  runOK(project, cli, ['create', 'api', '--group', GROUP, '--version', 'v1alpha1', '--kind', 'Widget', '--skip-codegen']);

  // The spoke renames a field: types and conversion edited as a developer would.
  const spokeTypes = join(project, 'apis/shop/v1alpha1/types.ts');
  const types = readFileSync(spokeTypes, 'utf8');
  assert.match(types, /^ {2}message\?: string;$/m);
  writeFileSync(spokeTypes, types.replace(/^ {2}message\?: string;$/m, '  text?: string;').replace('jsonPath=.spec.message', 'jsonPath=.spec.text'));
  writeFileSync(join(project, 'apis/shop/v1alpha1/conversion.ts'), SPOKE_CONVERSION);
  runOK(project, 'npm', ['run', 'codegen']);
  runOK(project, 'npx', ['--no-install', 'tsc', '--noEmit']);

  // Its control plane, driven with kubectl.
  const server = ProjectProcess.script(project, 'start', ['--secure-port', '0', '--data-dir', '.kube-ts']);
  started.push(server);
  await until('the server to be ready', () => (server.output().includes('ready in') ? true : undefined), 5 * 60_000).catch((e: unknown) => assert.fail(`${String(e)}\n${server.output()}`));
  const kubeconfig = join(project, '.kube-ts/admin.kubeconfig');
  const kubectl = (args: readonly string[], input?: string) => run(project, 'kubectl', ['--kubeconfig', kubeconfig, ...args], { timeoutMs: 2 * 60_000, ...(input === undefined ? {} : { input }) });
  const ok = (args: readonly string[], stdin?: string): string => {
    const r = kubectl(args, stdin);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}\n--- server ---\n${server.output().slice(-3000)}`);
    return r.stdout;
  };
  const getJSON = (resource: string, name: string): { spec?: Record<string, unknown>; status?: Record<string, unknown>; apiVersion?: string } =>
    JSON.parse(ok(['get', resource, name, '-n', 'default', '-o', 'json'])) as { spec?: Record<string, unknown>; status?: Record<string, unknown> };

  const resources = ok(['api-resources', '--api-group', GROUP, '-o', 'name']);
  assert.match(resources, /^widgets\.shop\.example\.com$/m);

  // Create in each version, read in both: defaults applied, the renamed field converted.
  ok(['create', '-f', '-'], widget('v1', 'from-hub', { message: 'hello' }));
  ok(['create', '-f', '-'], widget('v1alpha1', 'from-spoke', { text: 'hi' }));
  const hubView = getJSON(`widgets.v1.${GROUP}`, 'from-spoke');
  assert.deepEqual(hubView.spec, { message: 'hi', replicas: 1, maxReplicas: 10 });
  const spokeView = getJSON(`widgets.v1alpha1.${GROUP}`, 'from-hub');
  assert.deepEqual(spokeView.spec, { text: 'hello', replicas: 1, maxReplicas: 10 });
  for (const version of ['v1', 'v1alpha1']) {
    const names = ok(['get', `widgets.${version}.${GROUP}`, '-n', 'default', '-o', 'name'])
      .trim()
      .split('\n')
      .sort();
    assert.deepEqual(names, [`widget.${GROUP}/from-hub`, `widget.${GROUP}/from-spoke`]);
  }

  // The status subresource: written through /status, ignored on the main resource.
  ok(['patch', 'widgets', 'from-hub', '-n', 'default', '--subresource=status', '--type=merge', '-p', '{"status":{"observedReplicas":7}}']);
  ok(['patch', 'widgets', 'from-hub', '-n', 'default', '--type=merge', '-p', '{"status":{"observedReplicas":9},"spec":{"message":"changed"}}']);
  const patched = getJSON('widgets', 'from-hub');
  assert.equal(patched.status?.['observedReplicas'], 7);
  assert.equal(patched.spec?.['message'], 'changed');

  // The CEL rule: 422 with the rule's message.
  const cel = kubectl(['create', '-f', '-', '-v=6'], widget('v1', 'too-many', { replicas: 5, maxReplicas: 2 }));
  assert.notEqual(cel.code, 0);
  assert.match(cel.stderr, /422 Unprocessable Entity/);
  assert.match(cel.stderr, /The Widget "too-many" is invalid: spec: Invalid value: "object": replicas must not be greater than maxReplicas/);

  // The group's admission plugin: 403.
  const denied = kubectl(['create', '-f', '-'], widget('v1alpha1', 'system', {}));
  assert.notEqual(denied.code, 0);
  assert.match(denied.stderr, /Error from server \(Forbidden\).*the name system is reserved/);

  // The generated typed client and informers, through the project's controller: it writes the
  // status of a Widget it learns about from its informer.
  const controller = ProjectProcess.script(project, 'controller', ['--kubeconfig', kubeconfig]);
  started.push(controller);
  ok(['create', '-f', '-'], widget('v1', 'scaled', { replicas: 3 }));
  await until('the controller to write status.observedReplicas', () => (getJSON('widgets', 'scaled').status?.['observedReplicas'] === 3 ? true : undefined), 2 * 60_000).catch((e: unknown) =>
    assert.fail(`${String(e)}\n--- controller ---\n${controller.output()}`),
  );
  assert.equal(await controller.stop(), 0, controller.output());
  assert.equal(await server.stop(), 0, server.output().slice(-3000));

  // The project's own tests: the server in process, the typed client, an informer, the controller.
  runOK(project, 'npm', ['test']);

  // Nothing of the project reaches into this repository or out of the project.
  const skip = new Set(['node_modules', '.kube-ts', `vendor/${tarball}`]);
  const outside = projectFiles(project, skip).flatMap((f) => outsideReferences(project, f, repoRoot));
  assert.deepEqual(outside, []);
});
