// Which of kube's Table convertors a resource stands for, as its strategy declares it
// (RESTStrategy.tablePrinter, read by the installer through runtime/endpoints/table/printer.ts):
// a port of one of kube's hand-written printers (printerstorage.TableConvertor), the column
// convertor (apiextensions-apiserver's tableconvertor.New; a CRD's always), or kube's default
// convertor (rest.NewDefaultTableConvertor: Name, Created At). A kind that declares none gets the
// column convertor over its @printcolumn columns, or kube's default when it has none. The tables
// each choice makes are tested in runtime/endpoints/table/table.test.ts and table-crd.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { coreGroup } from '../../generated/registry/core.js';
import { coordinationGroup } from '../../generated/registry/coordination.js';
import { apiregistrationGroup } from '../../generated/registry/apiregistration.js';
import { apiextensionsGroup } from '../../generated/registry/apiextensions.js';
import { authorizationGroup } from '../../generated/registry/authorization.js';
import { rbacGroup } from '../../generated/registry/rbac.js';
import { crdGroupDefinition } from '../../runtime/apiextensions/definition.js';
import type { CustomResourceDefinition } from '../../apis/apiextensions/v1/types.js';
import type { ResourceDefinition } from '../../runtime/apimachinery/definition/resource.js';
import { CREATED_AT_COLUMN_DESCRIPTION, NAME_COLUMN_DESCRIPTION, newTableConvertor } from '../../runtime/endpoints/table/convertor.js';
import { COLUMN_PRINTER, DEFAULT_PRINTER, tablePrinterOf } from '../../runtime/endpoints/table/printer.js';
import { cronTabCRD, cronTabVersion } from '../apiextensions/env.js';

const kindOf = (group: { versions: readonly { resources: readonly ResourceDefinition[] }[] }, kind: string): ResourceDefinition => group.versions[0]!.resources.find((r) => r.kind === kind)!;
const AGE = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', priority: 0 } as const;

test("a built-in kind whose strategy declares a hand-written printer stands for kube's", () => {
  for (const kind of ['Event', 'Secret', 'ConfigMap', 'Service', 'ServiceAccount']) {
    const printer = tablePrinterOf(kindOf(coreGroup, kind));
    assert.equal(printer.kind, 'handwritten', kind);
  }
  for (const kind of ['RoleBinding', 'ClusterRoleBinding']) assert.equal(tablePrinterOf(kindOf(rbacGroup, kind)).kind, 'handwritten', kind);
  const apiService = tablePrinterOf(kindOf(apiregistrationGroup, 'APIService'));
  assert.ok(apiService.kind === 'handwritten' && Object.hasOwn(apiService.cells, 'Service'), "APIService's computed Service cell");
});

test('kinds kube prints with its default convertor declare it: Roles, ClusterRoles, CRDs (Name, Created At)', () => {
  assert.deepEqual(tablePrinterOf(kindOf(rbacGroup, 'Role')), DEFAULT_PRINTER);
  assert.deepEqual(tablePrinterOf(kindOf(rbacGroup, 'ClusterRole')), DEFAULT_PRINTER);
  assert.deepEqual(tablePrinterOf(kindOf(apiextensionsGroup, 'CustomResourceDefinition')), DEFAULT_PRINTER);
});

test('a declaration wins over the columns; without one, printer columns mean the column convertor and none mean the default', () => {
  assert.deepEqual(tablePrinterOf(kindOf(coordinationGroup, 'Lease')), COLUMN_PRINTER, 'Lease declares its columns only');
  assert.deepEqual(tablePrinterOf({ printerColumns: [AGE] }), COLUMN_PRINTER);
  assert.deepEqual(tablePrinterOf({ printerColumns: [] }), DEFAULT_PRINTER, "kube's default for a kind without a printer (sample-apiserver's)");
  assert.deepEqual(tablePrinterOf({ printerColumns: [], strategy: {} }), DEFAULT_PRINTER);
  assert.deepEqual(tablePrinterOf({ printerColumns: [], strategy: { tablePrinter: { kind: 'columns' } } }), COLUMN_PRINTER);
  assert.deepEqual(tablePrinterOf({ printerColumns: [AGE], strategy: { tablePrinter: { kind: 'default' } } }), DEFAULT_PRINTER);
  assert.deepEqual(tablePrinterOf({ printerColumns: [AGE], strategy: { tablePrinter: { kind: 'handwritten' } } }), { kind: 'handwritten', cells: {} });
  for (const kind of ['SubjectAccessReview', 'SelfSubjectAccessReview']) assert.deepEqual(tablePrinterOf(kindOf(authorizationGroup, kind)), DEFAULT_PRINTER, kind);
});

test('every CRD gets the column convertor, with or without additionalPrinterColumns', () => {
  const named = cronTabCRD({ versions: [cronTabVersion('v1', { storage: true, extra: { additionalPrinterColumns: [{ name: 'Name', type: 'string', jsonPath: '.metadata.name' }] } })] });
  const bare = cronTabCRD({ versions: [cronTabVersion('v1', { storage: true })] });
  for (const crd of [named, bare]) {
    const group = crdGroupDefinition(crd as unknown as CustomResourceDefinition);
    for (const version of group.versions) for (const r of version.resources) assert.deepEqual(tablePrinterOf(r), COLUMN_PRINTER, `${version.name} ${r.kind}`);
  }
});

test("a Role's table is kube's printRole: Name and Created At in RFC 3339, not an age", () => {
  const def = kindOf(rbacGroup, 'Role');
  const convertor = newTableConvertor(def.printerColumns, () => Date.parse('2024-05-01T10:05:00Z'), tablePrinterOf(def));
  const table = convertor.convertToTable({ metadata: { name: 'r', creationTimestamp: '2024-05-01T10:00:00Z' } }, { noHeaders: false, isList: false });
  assert.deepEqual(
    table.columnDefinitions?.map((c) => [c.name, c.type, c.format, c.description === CREATED_AT_COLUMN_DESCRIPTION || c.description === NAME_COLUMN_DESCRIPTION]),
    [
      ['Name', 'string', 'name', true],
      ['Created At', 'date', '', true],
    ],
  );
  assert.deepEqual(table.rows[0]?.cells, ['r', '2024-05-01T10:00:00Z']);
});
