// Port of k8s.io/apimachinery/pkg/util/managedfields/scalehandler_test.go.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ManagedFieldsEntry } from '../../apis/meta/v1/types.js';
import type { ResourcePathMappings } from '../../runtime/apimachinery/managedfields/scalehandler.js';
import { ScaleHandler } from '../../runtime/apimachinery/managedfields/scalehandler.js';
import { makePath } from '../../runtime/apimachinery/structuredmerge/fieldpath/index.js';

type Operation = 'Apply' | 'Update';

/** A managedFields entry as kube's tests write them: fieldsV1 as JSON text. */
function entry(manager: string, operation: Operation, apiVersion: string, fieldsJSON: string, opts: { subresource?: string; time?: string } = {}): ManagedFieldsEntry {
  const e: ManagedFieldsEntry = { manager, operation, apiVersion, fieldsType: 'FieldsV1', fieldsV1: JSON.parse(fieldsJSON) as Record<string, unknown> };
  if (opts.time !== undefined) e.time = opts.time;
  if (opts.subresource !== undefined) e.subresource = opts.subresource;
  return e;
}

const defaultMappings = (): ResourcePathMappings => new Map([['apps/v1', makePath('spec', 'replicas')]]);

describe('TestTransformManagedFieldsToSubresource', () => {
  const managedFieldTime = '2013-02-03T00:00:00Z';
  const tests: Array<{ desc: string; input: ManagedFieldsEntry[]; expected: ManagedFieldsEntry[] }> = [
    {
      desc: 'filter one entry and transform it into a subresource entry',
      input: [entry('manager-1', 'Apply', 'apps/v1', '{"f:spec":{"f:another-field":{}}}'), entry('manager-2', 'Apply', 'apps/v1', '{"f:spec":{"f:replicas":{}}}', { time: managedFieldTime })],
      expected: [entry('manager-2', 'Apply', 'autoscaling/v1', '{"f:spec":{"f:replicas":{}}}', { time: managedFieldTime })],
    },
    {
      desc: 'transform all entries',
      input: [
        entry('manager-1', 'Apply', 'apps/v1', '{"f:spec":{"f:replicas":{}}}'),
        entry('manager-2', 'Apply', 'apps/v1', '{"f:spec":{"f:replicas":{}}}'),
        entry('manager-3', 'Apply', 'apps/v1', '{"f:spec":{"f:replicas":{}}}', { subresource: 'scale' }),
      ],
      expected: [
        entry('manager-1', 'Apply', 'autoscaling/v1', '{"f:spec":{"f:replicas":{}}}'),
        entry('manager-2', 'Apply', 'autoscaling/v1', '{"f:spec":{"f:replicas":{}}}'),
        entry('manager-3', 'Apply', 'autoscaling/v1', '{"f:spec":{"f:replicas":{}}}', { subresource: 'scale' }),
      ],
    },
    {
      desc: 'drops fields if the api version is unknown',
      input: [entry('manager-1', 'Apply', 'apps/v10', '{"f:spec":{"f:replicas":{}}}')],
      expected: [],
    },
  ];
  for (const t of tests) {
    test(t.desc, () => {
      const handler = new ScaleHandler(t.input, 'apps/v1', defaultMappings());
      assert.deepEqual(handler.toSubresource(), t.expected);
    });
  }
});

/** The cases of TestTransformingManagedFieldsToParent whose parent and scale entries differ only in managers and operations. */
function stealing(desc: string, parent: [string, Operation], scale: [string, Operation], expected: Array<[string, Operation, string, string | undefined]>) {
  return {
    desc,
    parent: [entry(parent[0], parent[1], 'apps/v1', '{"f:spec":{"f:replicas":{},"f:selector":{}}}')],
    subresource: [entry(scale[0], scale[1], 'autoscaling/v1', '{"f:spec":{"f:replicas":{}}}', { subresource: 'scale' })],
    expected: expected.map(([m, op, fields, subresource]) => entry(m, op, 'apps/v1', fields, subresource === undefined ? {} : { subresource })),
  };
}

const selector = '{"f:spec":{"f:selector":{}}}';
const replicas = '{"f:spec":{"f:replicas":{}}}';

describe('TestTransformingManagedFieldsToParent', () => {
  const tests: Array<{ desc: string; parent: ManagedFieldsEntry[]; subresource: ManagedFieldsEntry[]; expected: ManagedFieldsEntry[] }> = [
    stealing(
      'different-managers: apply -> update',
      ['test', 'Apply'],
      ['scale', 'Update'],
      [
        ['test', 'Apply', selector, undefined],
        ['scale', 'Update', replicas, 'scale'],
      ],
    ),
    stealing(
      'different-managers: apply -> apply',
      ['test', 'Apply'],
      ['scale', 'Apply'],
      [
        ['scale', 'Apply', replicas, 'scale'],
        ['test', 'Apply', selector, undefined],
      ],
    ),
    stealing(
      'different-managers: update -> update',
      ['test', 'Update'],
      ['scale', 'Update'],
      [
        ['scale', 'Update', replicas, 'scale'],
        ['test', 'Update', selector, undefined],
      ],
    ),
    stealing(
      'different-managers: update -> apply',
      ['test', 'Update'],
      ['scale', 'Apply'],
      [
        ['scale', 'Apply', replicas, 'scale'],
        ['test', 'Update', selector, undefined],
      ],
    ),
    stealing(
      'same manager: apply -> apply',
      ['test', 'Apply'],
      ['test', 'Apply'],
      [
        ['test', 'Apply', selector, undefined],
        ['test', 'Apply', replicas, 'scale'],
      ],
    ),
    stealing(
      'same manager: update -> update',
      ['test', 'Update'],
      ['test', 'Update'],
      [
        ['test', 'Update', selector, undefined],
        ['test', 'Update', replicas, 'scale'],
      ],
    ),
    stealing(
      'same manager: update -> apply',
      ['test', 'Update'],
      ['test', 'Apply'],
      [
        ['test', 'Apply', replicas, 'scale'],
        ['test', 'Update', selector, undefined],
      ],
    ),
    stealing(
      'same manager: apply -> update',
      ['test', 'Apply'],
      ['test', 'Update'],
      [
        ['test', 'Apply', selector, undefined],
        ['test', 'Update', replicas, 'scale'],
      ],
    ),
    {
      desc: "subresource doesn't own the path anymore",
      parent: [entry('test', 'Apply', 'apps/v1', selector)],
      subresource: [entry('scale', 'Update', 'autoscaling/v1', '{"f:status":{"f:replicas":{}}}', { subresource: 'scale' })],
      expected: [entry('test', 'Apply', 'apps/v1', selector)],
    },
    {
      desc: 'Subresource steals all the fields of the parent resource',
      parent: [entry('test', 'Apply', 'apps/v1', replicas)],
      subresource: [entry('scale', 'Update', 'autoscaling/v1', replicas, { subresource: 'scale' })],
      expected: [entry('scale', 'Update', 'apps/v1', replicas, { subresource: 'scale' })],
    },
    {
      desc: 'apply without stealing',
      parent: [entry('test', 'Apply', 'apps/v1', '{"f:spec":{"f:replicas":{},"f:selector":{}}}')],
      subresource: [entry('test', 'Apply', 'autoscaling/v1', replicas), entry('test', 'Apply', 'autoscaling/v1', replicas, { subresource: 'scale' })],
      expected: [entry('test', 'Apply', 'apps/v1', '{"f:spec":{"f:replicas":{},"f:selector":{}}}'), entry('test', 'Apply', 'apps/v1', replicas, { subresource: 'scale' })],
    },
    {
      desc: 'drops the entry if the api version is unknown',
      parent: [entry('test', 'Apply', 'apps/v1', replicas), entry('another-manager', 'Apply', 'apps/v10', selector)],
      subresource: [entry('scale', 'Update', 'autoscaling/v1', replicas)],
      expected: [entry('scale', 'Update', 'apps/v1', replicas)],
    },
  ];
  for (const t of tests) {
    test(t.desc, () => {
      const handler = new ScaleHandler(t.parent, 'apps/v1', defaultMappings());
      assert.deepEqual(handler.toParent(t.subresource), t.expected);
    });
  }
});

describe('TestTransformingManagedFieldsToParentMultiVersion', () => {
  const tests: Array<{ desc: string; groupVersion: string; mappings: ResourcePathMappings; parent: ManagedFieldsEntry[]; subresource: ManagedFieldsEntry[]; expected: ManagedFieldsEntry[] }> = [
    {
      desc: 'multi-version',
      groupVersion: 'apps/v1',
      mappings: new Map([
        ['apps/v1', makePath('spec', 'the-replicas')],
        ['apps/v2', makePath('spec', 'not-the-replicas')],
      ]),
      parent: [entry('test', 'Apply', 'apps/v1', '{"f:spec":{"f:the-replicas":{},"f:selector":{}}}'), entry('test-other', 'Apply', 'apps/v2', '{"f:spec":{"f:not-the-replicas":{},"f:selector":{}}}')],
      subresource: [entry('scale', 'Update', 'autoscaling/v1', replicas, { subresource: 'scale' })],
      expected: [
        entry('test', 'Apply', 'apps/v1', selector),
        entry('test-other', 'Apply', 'apps/v2', selector),
        entry('scale', 'Update', 'apps/v1', '{"f:spec":{"f:the-replicas":{}}}', { subresource: 'scale' }),
      ],
    },
    {
      desc: 'Custom resource without scale subresource, scaling a version with `scale`',
      groupVersion: 'mygroup/v1',
      mappings: new Map([
        ['mygroup/v1', makePath('spec', 'the-replicas')],
        ['mygroup/v2', null],
      ]),
      parent: [entry('test', 'Apply', 'mygroup/v1', '{"f:spec":{"f:the-replicas":{},"f:selector":{}}}'), entry('test-other', 'Apply', 'mygroup/v2', '{"f:spec":{"f:test-other":{}}}')],
      subresource: [entry('scale', 'Update', 'autoscaling/v1', replicas, { subresource: 'scale' })],
      expected: [
        entry('test', 'Apply', 'mygroup/v1', selector),
        entry('test-other', 'Apply', 'mygroup/v2', '{"f:spec":{"f:test-other":{}}}'),
        entry('scale', 'Update', 'mygroup/v1', '{"f:spec":{"f:the-replicas":{}}}', { subresource: 'scale' }),
      ],
    },
  ];
  for (const t of tests) {
    test(t.desc, () => {
      const handler = new ScaleHandler(t.parent, t.groupVersion, t.mappings);
      assert.deepEqual(handler.toParent(t.subresource), t.expected);
    });
  }
});

describe('ScaleHandler inputs', () => {
  test('no managedFields at all', () => {
    const handler = new ScaleHandler(undefined, 'apps/v1', defaultMappings());
    assert.deepEqual(handler.toSubresource(), []);
    assert.deepEqual(handler.toParent(undefined), []);
  });
  test('entries that do not decode fail as kube decodes them', () => {
    const handler = new ScaleHandler([{ manager: 'm', operation: 'Apply', apiVersion: 'apps/v1', fieldsType: 'FieldsV2' }], 'apps/v1', defaultMappings());
    assert.throws(() => handler.toSubresource(), { message: 'invalid fieldsType "FieldsV2" in managed fields entry 0' });
  });
  test('the times of the resource are kept', () => {
    const time = '2026-11-26T04:00:00Z';
    const handler = new ScaleHandler([entry('test', 'Update', 'apps/v1', '{"f:spec":{"f:replicas":{},"f:selector":{}}}', { time })], 'apps/v1', defaultMappings());
    assert.deepEqual(handler.toParent([entry('scale', 'Update', 'autoscaling/v1', replicas, { subresource: 'scale', time })]), [
      entry('scale', 'Update', 'apps/v1', replicas, { subresource: 'scale' }),
      entry('test', 'Update', 'apps/v1', selector, { time }),
    ]);
  });
});
