import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import { emitKubernetes, importKubernetes, KUBERNETES_OUTPUT, loadDocuments } from '../../generator/openapi-import/index.js';
import { ROOT } from './harness.js';

// The reviewed output for coordination.k8s.io/v1 (Lease) imported from kube's document lives in
// fixtures/openapi-import/ (`<path under generated/kubernetes>.golden`). A change that changes it
// must update it on purpose: UPDATE_GOLDEN=1 npm test -- test/codegen/openapi-import-golden.test.ts
const GOLDEN = join(ROOT, 'test/codegen/fixtures/openapi-import');

function goldenFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? goldenFiles(path) : [path];
  });
}

test('coordination.k8s.io/v1 Lease: types, client, apply configuration, lister and informer match the golden files byte for byte', () => {
  const files = emitKubernetes(importKubernetes(loadDocuments(['apis/coordination.k8s.io/v1.json'])));
  const actual = new Map(files.map((f) => [relative(KUBERNETES_OUTPUT, f.path), f.text]));
  if (process.env['UPDATE_GOLDEN'] === '1') {
    for (const [path, text] of actual) {
      mkdirSync(dirname(join(GOLDEN, `${path}.golden`)), { recursive: true });
      writeFileSync(join(GOLDEN, `${path}.golden`), text);
    }
  }
  const goldens = goldenFiles(GOLDEN).map((g) => relative(GOLDEN, g).replace(/\.golden$/, ''));
  assert.deepEqual([...actual.keys()].sort(), goldens.sort(), 'the files generated for Lease are the golden ones');
  for (const path of goldens) assert.equal(actual.get(path), readFileSync(join(GOLDEN, `${path}.golden`), 'utf8'), `${path} differs from its golden file`);
});
