import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { scratchProject, type ScratchProject } from './harness.js';

// A developer adds a group to apis/, runs codegen, and uses its typed client:
// the program type-checks, and misuse of the client does not.
let project: ScratchProject;
before(() => {
  project = scratchProject();
  // The repository imports the CronTab CRD of the same group (apis/crds/): this developer defines the group in TypeScript instead.
  rmSync(join(project.root, 'apis/crds'), { recursive: true, force: true });
  project.write('apis/stable/v1/doc.ts', '/**\n * @groupName stable.example.com\n */\nexport {};\n');
  project.write(
    'apis/stable/v1/types.ts',
    `import type { ObjectMeta, TypeMeta, int32 } from '../../meta/v1/types.js';

/** CronTabSpec is what a CronTab runs. */
export interface CronTabSpec {
  /** @pattern ^(\\S+ ){4}\\S+$ */
  cronSpec: string;
  image?: string;
  /** @minimum 0 */
  replicas?: int32;
}

/**
 * @genclient
 * @resource shortName=ct
 * @subresource status
 */
export interface CronTab extends TypeMeta {
  metadata?: ObjectMeta;
  spec?: CronTabSpec;
  status?: { replicas?: int32 };
}

/**
 * @genclient
 * @nonNamespaced
 * @readonly
 */
export interface Schedule extends TypeMeta {
  metadata?: ObjectMeta;
}
`,
  );
});
after(() => project.dispose());

test('codegen reports the new group and writes its client', () => {
  const out = project.codegen();
  assert.match(out, /stable\.example\.com\/v1: CronTab, Schedule/);
  assert.match(out, /^generated \d+ files/m);
});

test('a program using the typed client type-checks', () => {
  project.write(
    'app/main.ts',
    `import { Clientset } from '../generated/index.js';
import type { RESTClient } from '../runtime/client/index.js';
export async function main(rest: RESTClient): Promise<number | undefined> {
  const cs = new Clientset(rest);
  const tabs = cs.stableV1().crontabs('default');
  const created = await tabs.create({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'x' }, spec: { cronSpec: '* * * * *' } });
  await tabs.updateStatus(created);
  const list = await cs.stableV1().schedules().list();
  return list.items.length + (created.spec?.replicas ?? 0);
}
`,
  );
  const result = project.typecheck();
  assert.equal(result.ok, true, result.output);
});

test('verbs the server does not serve are not on the client', () => {
  project.write(
    'app/main.ts',
    `import { Clientset } from '../generated/index.js';
import type { RESTClient } from '../runtime/client/index.js';
export async function main(rest: RESTClient): Promise<void> {
  const cs = new Clientset(rest);
  await cs.stableV1().schedules().create({ apiVersion: 'stable.example.com/v1', kind: 'Schedule', metadata: { name: 'x' } });
}
`,
  );
  const result = project.typecheck();
  assert.equal(result.ok, false);
  assert.match(result.output, /Property 'create' does not exist/);
});
