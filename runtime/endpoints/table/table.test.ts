import { APIServiceStrategy } from '../../../apis/apiregistration/v1/strategy.js';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { StatusError } from '../../apimachinery/errors/index.js';
import { CREATED_AT_COLUMN_DESCRIPTION, NAME_COLUMN_DESCRIPTION, newTableConvertor } from './convertor.js';
import { COLUMN_PRINTER, DEFAULT_PRINTER, tablePrinterOf, type TablePrinter } from './printer.js';
import { humanAge, humanDuration } from './duration.js';
import { goFormat } from './gofmt.js';
import { JSONPathParseError, parseJSONPath } from './jsonpath.js';
import { parseTableOptions, transformObject } from './transform.js';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe('humanDuration (util/duration.HumanDuration)', () => {
  const cases: [number, string][] = [
    [-2 * S, '<invalid>'],
    [-1 * S, '0s'],
    [-999, '0s'],
    [0, '0s'],
    [1 * S, '1s'],
    [119 * S, '119s'],
    [2 * M, '2m'],
    [2 * M + 5 * S, '2m5s'],
    [9 * M + 59 * S, '9m59s'],
    [10 * M + 30 * S, '10m'],
    [179 * M, '179m'],
    [3 * H, '3h'],
    [3 * H + 10 * M, '3h10m'],
    [7 * H + 59 * M, '7h59m'],
    [8 * H + 30 * M, '8h'],
    [47 * H, '47h'],
    [48 * H, '2d'],
    [2 * D + 5 * H, '2d5h'],
    [7 * D + 23 * H, '7d23h'],
    [8 * D, '8d'],
    [729 * D, '729d'],
    [730 * D, '2y'],
    [2 * 365 * D + 40 * D, '2y40d'],
    [8 * 365 * D, '8y'],
    [20 * 365 * D + 100 * D, '20y'],
  ];
  for (const [ms, want] of cases) test(`${ms}ms → ${want}`, () => assert.equal(humanDuration(ms), want));

  test('ages of timestamps', () => {
    const now = Date.parse('2024-05-01T10:05:00Z');
    assert.equal(humanAge('2024-05-01T10:00:00Z', now), '5m');
    assert.equal(humanAge('', now), '<unknown>');
    assert.equal(humanAge(null, now), '<unknown>');
    assert.equal(humanAge('yesterday', now), '<invalid>');
  });
});

describe('JSONPath subset', () => {
  const obj = {
    metadata: { name: 'a', labels: { 'app.kubernetes.io/name': 'x' } },
    spec: { replicas: 3, ports: [{ port: 80 }, { port: 443 }], nested: { deep: true } },
    status: {
      conditions: [
        { type: 'Ready', status: 'True' },
        { type: 'Synced', status: 'False' },
      ],
    },
  };
  const cases: [string, unknown[]][] = [
    ['.spec.replicas', [3]],
    ['{.spec.replicas}', [3]],
    ['$.spec.nested.deep', [true]],
    ['.spec.missing.x', []],
    ['.spec.ports[0].port', [80]],
    ['.spec.ports[-1].port', [443]],
    ['.spec.ports[*].port', [80, 443]],
    ['.spec.ports[5].port', []],
    [".metadata.labels['app.kubernetes.io/name']", ['x']],
    ['.status.conditions[?(@.type=="Ready")].status', ['True']],
    [".status.conditions[?(@.type!='Ready')].type", ['Synced']],
    ['.status.conditions[?(@.status)].type', ['Ready', 'Synced']],
    ['.spec.ports[?(@.port > 100)].port', [443]],
    ['..port', [80, 443]],
    ['.spec.nested.*', [true]],
  ];
  for (const [path, want] of cases) test(path, () => assert.deepEqual(parseJSONPath(path).find(obj), want));
  test('rejects what it cannot evaluate', () => {
    assert.throws(() => parseJSONPath('.spec[?(@.x ~ 1)]'), JSONPathParseError);
    assert.throws(() => parseJSONPath('spec x'), JSONPathParseError);
  });
});

test('goFormat prints as Go %v', () => {
  assert.equal(goFormat({ spec: { b: [1, 'x', null], a: 1.5 } }), 'map[spec:map[a:1.5 b:[1 x <nil>]]]');
  assert.equal(goFormat(1e21), '1e+21');
});

describe('Table convertor', () => {
  const now = Date.parse('2024-05-01T13:10:00Z');
  const convertor = newTableConvertor(
    [
      { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas', priority: 0 },
      { name: 'Ratio', type: 'number', jsonPath: '.spec.ratio', priority: 1, description: 'the ratio' },
      { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status', priority: 0 },
      { name: 'Paused', type: 'boolean', jsonPath: '.spec.paused', priority: 0 },
      { name: 'Labels', type: 'string', jsonPath: '.metadata.labels', priority: 0 },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', priority: 0 },
    ],
    () => now,
  );
  const obj = {
    apiVersion: 'x/v1',
    kind: 'K',
    metadata: { name: 'a', resourceVersion: '7', creationTimestamp: '2024-05-01T10:00:00Z', labels: { b: '2', a: '1' } },
    spec: { replicas: 3, ratio: 'not-a-number', paused: false },
    status: { conditions: [{ type: 'Ready', status: 'True' }] },
  };

  test('columns: Name first, then the printer columns, all keys present', () => {
    const t = convertor.convertToTable(obj, { noHeaders: false, isList: false });
    assert.deepEqual(t.columnDefinitions?.[0], { name: 'Name', type: 'string', format: 'name', description: NAME_COLUMN_DESCRIPTION, priority: 0 });
    assert.deepEqual(t.columnDefinitions?.[1], { name: 'Replicas', type: 'integer', format: '', description: 'Custom resource definition column (in JSONPath format): .spec.replicas', priority: 0 });
    assert.equal(t.columnDefinitions?.[2]?.description, 'the ratio');
    assert.deepEqual(t.rows[0]?.cells, ['a', 3, null, 'True', false, 'map[a:1 b:2]', '3h10m']);
    assert.deepEqual(t.metadata, { resourceVersion: '7' });
  });

  test('lists copy ListMeta; empty lists have rows []; noHeaders gives null columns', () => {
    const list = { kind: 'KList', apiVersion: 'x/v1', metadata: { resourceVersion: '9', continue: 'c', remainingItemCount: 2 }, items: [] };
    const t = convertor.convertToTable(list, { noHeaders: true, isList: true });
    assert.deepEqual(t, { kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: '9', continue: 'c', remainingItemCount: 2 }, columnDefinitions: null, rows: [] });
  });

  test('no printer columns: the default Age column', () => {
    const t = newTableConvertor([], () => now).convertToTable(obj, { noHeaders: false, isList: false });
    assert.deepEqual(
      t.columnDefinitions?.map((c) => c.name),
      ['Name', 'Age'],
    );
    assert.deepEqual(t.rows[0]?.cells, ['a', '3h10m']);
  });

  test('includeObject: Metadata (default) / Object / None', () => {
    const convert = { group: 'meta.k8s.io', version: 'v1', kind: 'Table' };
    const meta = transformObject(obj, false, convert, convertor, parseTableOptions(new URLSearchParams()), '*k.K') as { rows: { object?: unknown }[] };
    assert.deepEqual(meta.rows[0]?.object, { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata });
    const full = transformObject(obj, false, convert, convertor, parseTableOptions(new URLSearchParams('includeObject=Object')), '*k.K') as { rows: { object?: unknown }[] };
    assert.deepEqual(full.rows[0]?.object, obj);
    const none = transformObject(obj, false, convert, convertor, parseTableOptions(new URLSearchParams('includeObject=None')), '*k.K') as { rows: object[] };
    assert.equal((none.rows[0] as { object?: unknown }).object, null);
    assert.throws(
      () => parseTableOptions(new URLSearchParams('includeObject=All')),
      (e: unknown) =>
        e instanceof StatusError && e.code === 400 && e.message === `Unable to convert to Table as requested: includeObject: Invalid value: "All": must be 'Metadata', 'Object', 'None', or empty`,
    );
  });

  test('PartialObjectMetadata(List) and their 406s', () => {
    const pom = { group: 'meta.k8s.io', version: 'v1', kind: 'PartialObjectMetadata' };
    const poml = { ...pom, kind: 'PartialObjectMetadataList' };
    assert.deepEqual(transformObject(obj, false, pom, undefined, undefined, '*k.K'), { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata });
    const list = { kind: 'KList', apiVersion: 'x/v1', metadata: { resourceVersion: '9' }, items: [obj] };
    assert.deepEqual(transformObject(list, true, poml, undefined, undefined, '*k.KList'), {
      kind: 'PartialObjectMetadataList',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { resourceVersion: '9' },
      items: [{ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata }],
    });
    // The 406s name the Go type kube's handler holds (%T), not the versioned kind.
    assert.throws(
      () => transformObject(list, true, pom, undefined, undefined, '*unstructured.UnstructuredList'),
      (e: unknown) => e instanceof StatusError && e.code === 406 && e.status.message === 'you requested PartialObjectMetadata, but the requested object is a list (*unstructured.UnstructuredList)',
    );
    assert.throws(
      () => transformObject(obj, false, poml, undefined, undefined, '*core.ConfigMap'),
      (e: unknown) => e instanceof StatusError && e.code === 406 && e.status.message === 'you requested PartialObjectMetadataList, but the requested object is not a list (*core.ConfigMap)',
    );
    const status = { kind: 'Status', apiVersion: 'v1', status: 'Success' };
    assert.equal(transformObject(status, false, pom, undefined, undefined, '*k.K'), status);
  });
});

describe('printer cells of a strategy (APIService)', () => {
  const columns = [
    { name: 'Service', type: 'string', jsonPath: '.spec.service.name', priority: 0 },
    { name: 'Available', type: 'string', jsonPath: '.status.conditions[?(@.type=="Available")].status', priority: 0 },
  ] as const;
  const convertor = newTableConvertor(columns, Date.now, tablePrinterOf({ strategy: APIServiceStrategy as never, printerColumns: columns }));
  const row = (o: Record<string, unknown>): unknown[] | undefined => convertor.convertToTable({ metadata: { name: 'v1.x' }, ...o }, { noHeaders: true, isList: false }).rows[0]?.cells;

  test('Local for a local APIService, namespace/name for a service-backed one', () => {
    assert.deepEqual(row({ spec: {}, status: { conditions: [{ type: 'Available', status: 'True', reason: 'Local' }] } }), ['v1.x', 'Local', 'True']);
    assert.deepEqual(row({ spec: { service: { namespace: 'example', name: 'api' } } }), ['v1.x', 'example/api', 'Unknown']);
  });

  test('Available carries the reason when it is not True, as kube-aggregator prints it', () => {
    assert.deepEqual(row({ spec: {}, status: { conditions: [{ type: 'Available', status: 'False', reason: 'FailedDiscoveryCheck' }] } })?.[2], 'False (FailedDiscoveryCheck)');
  });
});

describe('a name column: placed by a built-in printer, repeated by a CRD (crdconversion tableconvertor)', () => {
  const name = { name: 'Name', type: 'string', format: 'name', jsonPath: '.metadata.name', priority: 1, description: 'the name' } as const;
  const reason = { name: 'Reason', type: 'string', jsonPath: '.reason', priority: 0 } as const;
  const obj = { metadata: { name: 'e1' }, reason: 'Created' };
  const table = (printer: TablePrinter | undefined) => newTableConvertor([reason, name], Date.now, printer).convertToTable(obj, { noHeaders: false, isList: false });

  test("a built-in kind's printer (its strategy declares tablePrinter handwritten, as Event's does) places the name where it declares it", () => {
    const t = table({ kind: 'handwritten', cells: {} });
    assert.deepEqual(
      t.columnDefinitions?.map((c) => [c.name, c.priority]),
      [
        ['Reason', 0],
        ['Name', 1],
      ],
    );
    assert.deepEqual(t.rows[0]?.cells, ['Created', 'e1']);
  });

  test("a CRD (no printer code) always gets Name first, then every additionalPrinterColumn: the name shows twice, as kube's does", () => {
    const t = table(undefined);
    assert.deepEqual(
      t.columnDefinitions?.map((c) => [c.name, c.priority]),
      [
        ['Name', 0],
        ['Reason', 0],
        ['Name', 1],
      ],
    );
    assert.deepEqual(t.rows[0]?.cells, ['e1', 'Created', 'e1']);
  });

  test('a column named like an Object.prototype member is a JSONPath column, never a printer cell', () => {
    const proto = { name: 'constructor', type: 'string', jsonPath: '.reason', priority: 0 } as const;
    for (const printer of [COLUMN_PRINTER, { kind: 'handwritten', cells: {} } as const]) {
      const t = newTableConvertor([proto], Date.now, printer).convertToTable(obj, { noHeaders: true, isList: false });
      assert.deepEqual(t.rows[0]?.cells, ['e1', 'Created']);
    }
  });
});

describe("kube's default convertor (rest.NewDefaultTableConvertor): Name and Created At, whatever columns are declared", () => {
  const convertor = newTableConvertor([{ name: 'Reason', type: 'string', jsonPath: '.reason', priority: 0 }], () => 0, DEFAULT_PRINTER);

  test("the name and the creation time in RFC 3339 UTC (not an age); Go's zero time when there is none", () => {
    const t = convertor.convertToTable(
      {
        metadata: { resourceVersion: '7', continue: 'c', remainingItemCount: 2 },
        items: [{ metadata: { name: 'a', creationTimestamp: '2024-03-04T05:06:07Z' }, reason: 'x' }, { metadata: { name: 'b' } }],
      },
      { noHeaders: false, isList: true },
    );
    assert.deepEqual(t.columnDefinitions, [
      { name: 'Name', type: 'string', format: 'name', description: NAME_COLUMN_DESCRIPTION, priority: 0 },
      { name: 'Created At', type: 'date', format: '', description: CREATED_AT_COLUMN_DESCRIPTION, priority: 0 },
    ]);
    assert.deepEqual(
      t.rows.map((r) => r.cells),
      [
        ['a', '2024-03-04T05:06:07Z'],
        ['b', '0001-01-01T00:00:00Z'],
      ],
    );
    assert.deepEqual(t.metadata, { resourceVersion: '7', continue: 'c', remainingItemCount: 2 });
  });

  test('noHeaders leaves the column definitions out; one object is one row', () => {
    const t = convertor.convertToTable({ metadata: { name: 'one', creationTimestamp: '2024-03-04T05:06:07.5Z', resourceVersion: '3' } }, { noHeaders: true, isList: false });
    assert.equal(t.columnDefinitions, null);
    assert.deepEqual(t.rows[0]?.cells, ['one', '2024-03-04T05:06:07Z']);
    assert.deepEqual(t.metadata, { resourceVersion: '3' });
  });
});
