import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { listFiles, syncTree } from '../../generator/write.js';
import { ROOT, scratchProject, type ScratchProject } from './harness.js';

// --crd is atomic and refuses what would make two things one: a failed import leaves
// apis/crds/ and generated/ byte for byte as they were, and every collision names both places.
const crds = (path: string): string => join(ROOT, 'test/codegen/fixtures/crds', path);

/** Every file of the project's apis/crds/ and generated/ with its bytes. */
function snapshot(project: ScratchProject): Map<string, string> {
  const out = new Map<string, string>();
  for (const dir of ['apis/crds', 'generated']) {
    for (const rel of listFiles(join(project.root, dir))) out.set(`${dir}/${rel}`, readFileSync(join(project.root, dir, rel), 'utf8'));
  }
  return out;
}

function failure(project: ScratchProject, ...args: string[]): string {
  try {
    project.codegen(...args);
  } catch (err) {
    return (err as Error).message;
  }
  assert.fail(`codegen ${args.join(' ')} succeeded`);
}

let project: ScratchProject;
let extra: string;
before(() => {
  project = scratchProject({ withApis: false });
  extra = mkdtempSync(join(tmpdir(), 'crd-extra-'));
  project.codegen('--crd', crds('certificates.yaml'));
});
after(() => {
  project.dispose();
  rmSync(extra, { recursive: true, force: true });
});

test('a failed import leaves apis/crds/ and generated/ exactly as they were', () => {
  const before = snapshot(project);
  // The first manifest is fine (a Queue CRD among other kinds); the second fails late.
  const out = failure(project, '--crd', crds('import/mixed-operator.yaml'), crds('import/broken-late.yaml'));
  assert.match(out, /broken-late\.yaml:38: CustomResourceDefinition runs\.batchx\.example\.com: spec\.versions\[0\]\.schema\.openAPIV3Schema: Required value: schemas are required/);
  assert.deepEqual(snapshot(project), before);
});

test('collisions are errors naming both files: same file name, same CRD, one client name for two groups, a group of apis/', () => {
  // The same CRD as apis/crds/certificates.yaml under another file name.
  writeFileSync(join(extra, 'certs-again.yaml'), readFileSync(crds('certificates.yaml'), 'utf8'));
  // A group apis/ defines, and a group whose client name (its first label) is one of apis/.
  writeFileSync(
    join(extra, 'ours.yaml'),
    [crdYAML('widgets.apiextensions.k8s.io', 'apiextensions.k8s.io', 'Widget', 'widgets'), crdYAML('gadgets.autoscaling.example.com', 'autoscaling.example.com', 'Gadget', 'gadgets')].join('---\n'),
  );
  const before = snapshot(project);
  const out = failure(
    project,
    '--crd',
    crds('gateway-api/standard/gateway.networking.k8s.io_httproutes.yaml'),
    crds('gateway-api/experimental/gateway.networking.k8s.io_httproutes.yaml'),
    crds('gateway-api/experimental/gateway.networking.x-k8s.io_xmeshes.yaml'),
    join(extra, 'certs-again.yaml'),
    join(extra, 'ours.yaml'),
  );
  assert.match(
    out,
    /experimental\/gateway\.networking\.k8s\.io_httproutes\.yaml:1: another manifest has the same file name: \S*standard\/gateway\.networking\.k8s\.io_httproutes\.yaml \(both would be kept as apis\/crds\/gateway\.networking\.k8s\.io_httproutes\.yaml\)/,
  );
  assert.match(out, /certs-again\.yaml:3: CustomResourceDefinition certificates\.certs\.example\.io \(kind Certificate\) is also defined at apis\/crds\/certificates\.yaml:3/);
  assert.match(
    out,
    /gateway\.networking\.x-k8s\.io_xmeshes\.yaml:\d+: group gateway\.networking\.x-k8s\.io and group gateway\.networking\.k8s\.io \(\S*standard\/gateway\.networking\.k8s\.io_httproutes\.yaml:\d+\) would both have the client name "gateway"/,
  );
  assert.match(out, /ours\.yaml:1: imported CRD group apiextensions\.k8s\.io is also defined in apis\/ \(apis\/apiextensions\/v1\/types\.ts:\d+\)/);
  assert.match(out, /ours\.yaml:\d+: group autoscaling\.example\.com and group autoscaling \(apis\/autoscaling\S*\) would both have the client name "autoscaling"/);
  assert.deepEqual(snapshot(project), before);
});

test('a mixed manifest and a v1beta1 CRD import; files without a CRD are not kept', () => {
  const out = project.codegen('--crd', crds('import/mixed-operator.yaml'), crds('import/v1beta1-backups.yaml'), crds('gateway-api/standard/gateway.networking.k8s.io_vap_safeupgrades.yaml'));
  assert.match(out, /skipped \S*gateway\.networking\.k8s\.io_vap_safeupgrades\.yaml: no CustomResourceDefinition in it/);
  assert.match(out, /ops\.example\.com\/v1beta1 \(imported CRD\): Backup \(storage, hub\)/);
  assert.match(out, /ops\.example\.com\/v1 \(imported CRD\): Restore \(storage, hub\)/);
  assert.match(out, /queue\.example\.com\/v1 \(imported CRD\): Queue \(storage, hub\)/);
  assert.deepEqual(listFiles(join(project.root, 'apis/crds')), ['certificates.yaml', 'mixed-operator.yaml', 'v1beta1-backups.yaml']);
  const backups = readFileSync(join(project.root, 'generated/types/ops/v1beta1.ts'), 'utf8');
  assert.match(backups, /schedule: string;/);
  assert.match(
    readFileSync(join(project.root, 'generated/types/ops/v1.ts'), 'utf8'),
    /export interface Restore \{\n {2}apiVersion\?: string;\n {2}kind\?: string;\n {2}metadata\?: ObjectMeta;\n {2}\[key: string\]: unknown;\n\}/,
  );
  const verify = project.verify();
  assert.equal(verify.ok, true, verify.output);
});

test('a write that fails midway is undone: the files written before it are restored', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sync-'));
  try {
    const header = '// Code generated by hack/update-codegen. DO NOT EDIT.\n';
    writeFileSync(join(dir, 'a.ts'), `${header}a`);
    writeFileSync(join(dir, 'stale.ts'), `${header}stale`);
    mkdirSync(join(dir, 'z.ts'));
    const plan = [
      { path: 'generated/a.ts', text: `${header}a2` },
      { path: 'generated/b.ts', text: `${header}b` },
      // A directory stands where this file must go: the rename fails after the others were written.
      { path: 'generated/z.ts', text: `${header}z` },
    ];
    assert.throws(() => syncTree(dir, 'generated', plan));
    assert.deepEqual(listFiles(dir), ['a.ts', 'stale.ts']);
    assert.equal(readFileSync(join(dir, 'a.ts'), 'utf8'), `${header}a`);
    assert.equal(readFileSync(join(dir, 'stale.ts'), 'utf8'), `${header}stale`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

function crdYAML(name: string, group: string, kind: string, plural: string): string {
  return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ${name}
spec:
  group: ${group}
  scope: Namespaced
  names: {kind: ${kind}, plural: ${plural}}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
`;
}
