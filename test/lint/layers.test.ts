// The layering rule (hack/lint/layers.mjs, ARCHITECTURE.md "Layers"): imports point down, client
// stands on apimachinery alone (its fake on the registry too), nothing in runtime/ names a
// consumer group; run through the repository's own ESLint config, as `npm run lint` runs it.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';

const root = join(import.meta.dirname, '..', '..');
const eslint = new ESLint({ cwd: root });

/** The layer findings for `import type { X } from '<spec>'` written in the file at `path`. */
async function layerFindings(path: string, spec: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import type { X } from '${spec}';\nexport type Y = X;\n`, { filePath: join(root, path) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'local/layers').map((m) => m.message);
}

describe('lint: layers', () => {
  it('refuses an import from a higher layer, naming both layers', async () => {
    assert.deepEqual(await layerFindings('runtime/apimachinery/x.ts', '../storage/errors.js'), [
      "layer 'apimachinery' may not import 'storage' (runtime/storage/errors.js): imports point down the layers (ARCHITECTURE.md)",
    ]);
    assert.equal((await layerFindings('runtime/endpoints/filters/x.ts', '../../server/lifecycle.js')).length, 1);
    assert.equal((await layerFindings('runtime/client/x.ts', '../endpoints/installer.js')).length, 1);
    assert.equal((await layerFindings('runtime/controllers/x/y.ts', '../../controlplane/options.js')).length, 1);
    assert.equal((await layerFindings('generator/model/x.ts', '../../runtime/registry/types.js')).length, 1);
    assert.equal((await layerFindings('runtime/apimachinery/x.ts', '../../generated/openapi/core/v1.json')).length, 1);
  });

  it('allows imports that point down, within a layer, and the fake clientset on the registry', async () => {
    assert.deepEqual(await layerFindings('runtime/registry/x.ts', '../storage/errors.js'), []);
    assert.deepEqual(await layerFindings('runtime/server/x.ts', '../endpoints/installer.js'), []);
    assert.deepEqual(await layerFindings('runtime/apimachinery/a/x.ts', '../b/y.js'), []);
    assert.deepEqual(await layerFindings('runtime/client/fake/x.ts', '../../registry/rest.js'), []);
    assert.deepEqual(await layerFindings('runtime/controlplane/x.ts', '../aggregator/index.js'), []);
    assert.deepEqual(await layerFindings('runtime/apimachinery/x.ts', '../../apis/meta/v1/types.js'), [], "the built-in API is everyone's");
  });

  it('refuses a consumer group anywhere in runtime/, and an index of every group', async () => {
    assert.equal((await layerFindings('runtime/controlplane/x.ts', '../../apis/wardle/v1beta1/types.js')).length, 1);
    assert.equal((await layerFindings('runtime/aggregator/x.ts', '../../generated/clientset/index.js')).length, 1);
    assert.deepEqual(await layerFindings('runtime/aggregator/x.ts', '../../generated/clientset/apiregistration/v1/index.js'), []);
  });

  it("leaves tests and this repository's own entries alone", async () => {
    assert.deepEqual(await layerFindings('runtime/apimachinery/x.test.ts', '../storage/errors.js'), []);
    assert.deepEqual(await layerFindings('test/x.ts', '../runtime/controlplane/options.js'), []);
    assert.deepEqual(await layerFindings('runtime/controlplane/serve.ts', '../../generated/index.js'), []);
  });
});
