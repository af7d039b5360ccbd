// The group seam, kept: nothing under runtime/ names a group, kind or resource of this
// repository's own apis/ (they are one consumer of the runtime, reaching it through
// generated/ and the groups passed to runControlPlane / runAggregatedServer), and the runtime
// does not import the project's generated index or a consumer group's code. The built-in
// groups (core, apiextensions.k8s.io, apiregistration.k8s.io) are the runtime's own, as in kube.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../integration/harness.js';

const RUNTIME = join(repoRoot, 'runtime');

/** This repository's commands (`npm start`, `npm run serve-aggregated`): where it passes its own groups. */
const REPOSITORY_ENTRIES: ReadonlySet<string> = new Set(['runtime/controlplane/serve.ts', 'runtime/aggregated/serve.ts']);

/** Groups, kinds and resources of the consumer apis/ and CRDs of this repository. */
const CONSUMER_NAMES = /wardle|flunder|fischer|crontab|stable\.example\.com/i;

/**
 * Module specifiers the runtime may not import: the project's generated index, its whole
 * clientset, informer factory and protobuf index (they list every group of the project), a
 * consumer group's code.
 */
const CONSUMER_IMPORT =
  /(?:from|import)\s*\(?\s*['"]([^'"]*(?:generated\/(?:index|clientset\/index|informers\/factory|protobuf\/index)(?:\.js)?|apis\/(?:wardle|crds)\/[^'"]*|generated\/[a-z]+\/(?:wardle|stable)[^'"]*))['"]/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.(?:ts|mts|js|mjs|json)$/.test(e.name) ? [path] : [];
  });
}

function offences(check: (line: string) => string | undefined): string[] {
  const found: string[] = [];
  for (const file of sources(RUNTIME)) {
    const rel = relative(repoRoot, file).split('\\').join('/');
    if (REPOSITORY_ENTRIES.has(rel)) continue;
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        const what = check(line);
        if (what !== undefined) found.push(`${rel}:${i + 1}: ${what}: ${line.trim().slice(0, 160)}`);
      });
  }
  return found;
}

test('nothing under runtime/ names a group, kind or resource of a consumer (code, comments, tests)', () => {
  const found = offences((line) => {
    const m = CONSUMER_NAMES.exec(line);
    return m === null ? undefined : `names ${JSON.stringify(m[0])}`;
  });
  assert.deepEqual(found, [], `the runtime names a consumer's API; use a neutral or built-in example:\n${found.join('\n')}`);
});

test("nothing under runtime/ imports the project's generated index or a consumer group", () => {
  const found = offences((line) => {
    const m = CONSUMER_IMPORT.exec(line);
    return m === null ? undefined : `imports ${m[1]}`;
  });
  assert.deepEqual(found, [], `the runtime reaches into a consumer; take its groups as a parameter:\n${found.join('\n')}`);
});

test('the check itself finds what it looks for', () => {
  assert.ok(CONSUMER_NAMES.test('// e.g. BanFlunder'));
  assert.ok(CONSUMER_NAMES.test("{ group: 'stable.example.com' }"));
  assert.ok(!CONSUMER_NAMES.test("{ group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' }"));
  assert.equal(CONSUMER_IMPORT.exec("import { apiGroups } from '../../generated/index.js';")?.[1], '../../generated/index.js');
  assert.equal(CONSUMER_IMPORT.exec("import { banFlunder } from '../../apis/wardle/v1beta1/admission.js';")?.[1], '../../apis/wardle/v1beta1/admission.js');
  assert.equal(CONSUMER_IMPORT.exec("import { Clientset } from '../../generated/clientset/index.js';")?.[1], '../../generated/clientset/index.js');
  assert.equal(CONSUMER_IMPORT.exec("import { coreGroup } from '../../generated/registry/core.js';"), null);
  assert.equal(CONSUMER_IMPORT.exec("import { CoreV1Client } from '../../generated/clientset/core/v1/index.js';"), null);
});
