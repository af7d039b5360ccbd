// Which of kube's Table convertors a resource stands for, as the installer chooses it
// (runtime/endpoints/table/printer.ts): a built-in kind with printer code ports one of kube's
// hand-written printers (printerstorage.TableConvertor), every other kind gets the column
// convertor (apiextensions-apiserver's tableconvertor.New), a CRD's always. The tables each
// choice makes are tested in runtime/endpoints/table/table.test.ts and table-crd.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { coreGroup } from '../../generated/registry/core.js';
import { coordinationGroup } from '../../generated/registry/coordination.js';
import { apiregistrationGroup } from '../../generated/registry/apiregistration.js';
import { crdGroupDefinition } from '../../runtime/apiextensions/definition.js';
import type { CustomResourceDefinition } from '../../apis/apiextensions/v1/types.js';
import { COLUMN_PRINTER, tablePrinterOf } from '../../runtime/endpoints/table/printer.js';
import { cronTabCRD, cronTabVersion } from '../apiextensions/env.js';

const kindOf = (group: { versions: readonly { resources: readonly { kind: string }[] }[] }, kind: string) => group.versions[0]!.resources.find((r) => r.kind === kind)!;

test("a built-in kind whose strategy carries printer code stands for kube's hand-written printer", () => {
  for (const kind of ['Event', 'Secret', 'ConfigMap', 'Service', 'ServiceAccount']) {
    const printer = tablePrinterOf(kindOf(coreGroup, kind) as never);
    assert.equal(printer.kind, 'handwritten', kind);
  }
  const apiService = tablePrinterOf(kindOf(apiregistrationGroup, 'APIService') as never);
  assert.ok(apiService.kind === 'handwritten' && Object.hasOwn(apiService.cells, 'Service'), "APIService's computed Service cell");
});

test('a kind without printer code, and every CRD, get the column convertor', () => {
  assert.deepEqual(tablePrinterOf(kindOf(coordinationGroup, 'Lease') as never), COLUMN_PRINTER);
  assert.deepEqual(tablePrinterOf({}), COLUMN_PRINTER);
  const crd = cronTabCRD({ versions: [cronTabVersion('v1', { storage: true, extra: { additionalPrinterColumns: [{ name: 'Name', type: 'string', jsonPath: '.metadata.name' }] } })] });
  const group = crdGroupDefinition(crd as unknown as CustomResourceDefinition);
  for (const version of group.versions) for (const r of version.resources) assert.deepEqual(tablePrinterOf(r), COLUMN_PRINTER, `${version.name} ${r.kind}`);
});
