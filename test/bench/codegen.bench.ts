// Codegen time for the repository's apis/ and for 50 synthetic groups × 4
// kinds (target: under 10 s for the 200-kind case on a 2-core machine).
import { rmSync } from 'node:fs';
import { generate } from '../../generator/codegen.js';
import { ROOT, scratchProject } from '../codegen/harness.js';

const quick = process.env['BENCH_QUICK'] === '1';
const GROUPS = quick ? 5 : 50;
const KINDS = 4;

async function timed(root: string): Promise<{ seconds: number; files: number; kinds: number }> {
  const started = performance.now();
  const { model, files } = await generate(root);
  const kinds = model.groups.reduce((n, g) => n + g.versions.reduce((m, v) => m + v.kinds.length, 0), 0);
  return { seconds: (performance.now() - started) / 1000, files: files.length, kinds };
}

function syntheticKind(i: number): string {
  return `/**
 * Widget${i} is a synthetic kind.
 *
 * @genclient
 * @subresource status
 * @printcolumn name=Size type=integer jsonPath=.spec.size
 */
export interface Widget${i} extends TypeMeta {
  metadata?: ObjectMeta;
  spec?: Widget${i}Spec;
  status?: { ready?: boolean };
}

/** @validation rule="self.size <= 100 || self.mode == 'Large'" message="small widgets stay under 100" */
export interface Widget${i}Spec {
  /** @minimum 0 */
  size: int32;
  /** @pattern ^[a-z]+$ */
  name?: string;
  mode?: 'Small' | 'Large';
  /**
   * @listType map
   * @listMapKey key
   */
  entries?: { key: string; value?: string }[];
}
`;
}

const repo = await timed(ROOT);
console.log(`codegen of apis/: ${repo.kinds} kinds, ${repo.files} files in ${repo.seconds.toFixed(2)} s`);

const project = scratchProject({ withApis: false });
try {
  for (let g = 0; g < GROUPS; g++) {
    project.write(`apis/synthetic${g}/v1/doc.ts`, `/**\n * @groupName synthetic${g}.example.com\n */\nexport {};\n`);
    const kinds = Array.from({ length: KINDS }, (_, i) => syntheticKind(i)).join('\n');
    project.write(`apis/synthetic${g}/v1/types.ts`, `import type { ObjectMeta, TypeMeta, int32 } from '../../meta/v1/types.js';\n\n${kinds}`);
  }
  const synthetic = await timed(project.root);
  const target = 10;
  console.log(
    `codegen of ${GROUPS} groups × ${KINDS} kinds: ${synthetic.kinds} kinds, ${synthetic.files} files in ${synthetic.seconds.toFixed(2)} s (target < ${target} s: ${synthetic.seconds < target ? 'met' : 'MISSED'})`,
  );
} finally {
  project.dispose();
  rmSync(project.root, { recursive: true, force: true });
}
