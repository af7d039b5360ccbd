// The structured merge manager (internal/structuredmerge.go), the innermost layer of the field
// manager: kube has no test of its own for it (internal/fieldmanager_test.go goes through every
// layer); these check its contract directly: versions, apply's errors and status codes, no-op
// applies, duplicates, reset fields, defaulting, and results that share nothing with the input.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JSONSchemaProps } from '../../apis/apiextensions/v1/schema.js';
import { toStatusError } from '../../runtime/apimachinery/errors/catalog.js';
import { StatusError } from '../../runtime/apimachinery/errors/status-error.js';
import { newEmptyManaged, newManaged } from '../../runtime/apimachinery/managedfields/managedfields.js';
import type { Managed } from '../../runtime/apimachinery/managedfields/manager.js';
import type { ObjectDefaulter } from '../../runtime/apimachinery/managedfields/structuredmerge.js';
import { newCRDStructuredMergeManager, newStructuredMergeManager } from '../../runtime/apimachinery/managedfields/structuredmerge.js';
import { newTypeConverter } from '../../runtime/apimachinery/managedfields/typeconverter.js';
import type { ObjectConvertor } from '../../runtime/apimachinery/managedfields/versionconverter.js';
import type { JSONObject } from '../../runtime/apimachinery/serializer/jsonvalue.js';
import type { APIVersion } from '../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { makePath, Set as FieldSet, VersionedSet } from '../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { Conflicts } from '../../runtime/apimachinery/structuredmerge/merge/index.js';

/** Widget: `spec.size` in v1 (the hub), `spec.replicas` in v2; tags a set, items a list-map by name. */
function widgetSchema(sizeField: string): JSONSchemaProps {
  return {
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object' },
      spec: {
        type: 'object',
        properties: {
          [sizeField]: { type: 'integer' },
          mode: { type: 'string' },
          tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
          items: {
            type: 'array',
            items: { type: 'object', properties: { name: { type: 'string' }, value: { type: 'string' } } },
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['name'],
          },
        },
      },
      status: { type: 'object', properties: { phase: { type: 'string' } } },
    },
  };
}

const v1 = 'example.com/v1';
const v2 = 'example.com/v2';
const tc = newTypeConverter(
  [
    { apiVersion: v1, kind: 'Widget', schema: widgetSchema('size') },
    { apiVersion: v2, kind: 'Widget', schema: widgetSchema('replicas') },
  ],
  { preserveUnknownFields: false },
);

/** Renames spec.size ↔ spec.replicas; counts its calls. */
function widgetConvertor(calls: string[] = []): ObjectConvertor {
  return {
    convert(obj: JSONObject, apiVersion: string): JSONObject {
      calls.push(`${String(obj['apiVersion'])}->${apiVersion}`);
      const spec = { ...((obj['spec'] as JSONObject | undefined) ?? {}) };
      const [from, to] = apiVersion === v2 ? ['size', 'replicas'] : ['replicas', 'size'];
      if (from in spec) {
        spec[to] = spec[from];
        delete spec[from];
      }
      return { ...obj, apiVersion, ...(obj['spec'] === undefined ? {} : { spec }) };
    },
  };
}

const widget = (apiVersion: string, spec: JSONObject, extra: JSONObject = {}): JSONObject => ({ apiVersion, kind: 'Widget', metadata: { name: 'w', namespace: 'ns' }, spec, ...extra });
const empty = (): JSONObject => ({ apiVersion: v1, kind: 'Widget' });
const fieldsOf = (m: Managed, manager: string): string | undefined => m.fields().get(manager)?.set.toString();

describe('structuredmerge update', () => {
  test('records the fields the manager changed, in the request version, and returns the new object as given', async () => {
    const f = newStructuredMergeManager(tc, widgetConvertor(), v2, v1);
    const next = widget(v1, { size: 3, tags: ['a'] });
    const r = await f.update(empty(), next, newEmptyManaged(), 'mgr');
    assert.equal(r.object, next);
    assert.equal(r.managed.fields().get('mgr')?.apiVersion, v2);
    // apiVersion and kind did not change; metadata, spec and the list were added (members, as SMD records them).
    assert.equal(fieldsOf(r.managed, 'mgr'), '.metadata\n.spec\n.metadata.name\n.metadata.namespace\n.spec.replicas\n.spec.tags\n.spec.tags[="a"]');
  });

  test('duplicates in the objects of an update are tolerated', async () => {
    const f = newStructuredMergeManager(tc, widgetConvertor(), v1, v1);
    const r = await f.update(empty(), widget(v1, { tags: ['a', 'a'] }), newEmptyManaged(), 'mgr');
    assert.equal(fieldsOf(r.managed, 'mgr'), '.metadata\n.spec\n.metadata.name\n.metadata.namespace\n.spec.tags\n.spec.tags[="a"]');
  });

  test('an object the schema refuses is a plain error (kube logs it and drops managedFields)', async () => {
    const f = newStructuredMergeManager(tc, widgetConvertor(), v1, v1);
    await assert.rejects(f.update(empty(), widget(v1, { bogus: 1 }), newEmptyManaged(), 'mgr'), {
      message: 'failed to convert new object (ns/w; example.com/v1, Kind=Widget) to smd typed: .spec.bogus: field not declared in schema',
    });
  });
});

describe('structuredmerge apply', () => {
  test('creates, converting the applied configuration back to the hub version', async () => {
    const calls: string[] = [];
    const f = newStructuredMergeManager(tc, widgetConvertor(calls), v2, v1);
    const r = await f.apply(empty(), widget(v2, { replicas: 2, items: [{ name: 'x', value: '1' }] }), newEmptyManaged(), 'applier', false);
    assert.deepEqual(r.object, widget(v1, { size: 2, items: [{ name: 'x', value: '1' }] }));
    assert.equal(r.managed.fields().get('applier')?.applied, true);
    assert.equal(
      fieldsOf(r.managed, 'applier'),
      '.apiVersion\n.kind\n.metadata.name\n.metadata.namespace\n.spec.replicas\n.spec.items[name="x"]\n.spec.items[name="x"].name\n.spec.items[name="x"].value',
    );
    assert.deepEqual(calls, ['example.com/v1->example.com/v2', 'example.com/v2->example.com/v1']);
  });

  test('an apply that changes nothing answers no object', async () => {
    const f = newStructuredMergeManager(tc, widgetConvertor(), v1, v1);
    const applied = widget(v1, { size: 2 });
    const first = await f.apply(empty(), applied, newEmptyManaged(), 'applier', false);
    assert.ok(first.object !== null);
    const managed = stripMeta(first.managed);
    const again = await f.apply(first.object, applied, managed, 'applier', false);
    assert.equal(again.object, null);
    // The applier's new set is the whole configuration again; stripping it is the layer above's job.
    assert.equal(fieldsOf(again.managed, 'applier'), fieldsOf(first.managed, 'applier'));
  });

  test('conflicts with another manager, taken with force', async () => {
    const f = newStructuredMergeManager(tc, widgetConvertor(), v1, v1);
    const first = await f.apply(empty(), widget(v1, { size: 2 }), newEmptyManaged(), 'a', false);
    assert.ok(first.object !== null);
    await assert.rejects(f.apply(first.object, widget(v1, { size: 3 }), first.managed, 'b', false), (err: unknown) => {
      assert.ok(err instanceof Conflicts);
      assert.equal(err.message, 'conflict with "a": .spec.size');
      return true;
    });
    const forced = await f.apply(first.object, widget(v1, { size: 3 }), first.managed, 'b', true);
    assert.equal((forced.object?.['spec'] as JSONObject)['size'], 3);
    assert.equal(fieldsOf(forced.managed, 'a'), '.apiVersion\n.kind\n.metadata.name\n.metadata.namespace');
  });

  const failures: Array<[string, () => Promise<unknown>, number, string, string]> = [
    [
      'another version than the endpoint’s',
      () => newStructuredMergeManager(tc, widgetConvertor(), v2, v1).apply(empty(), widget(v1, {}), newEmptyManaged(), 'm', false),
      400,
      'BadRequest',
      'Incorrect version specified in apply patch. Specified patch version: example.com/v1, expected: example.com/v2',
    ],
    [
      'no apiVersion',
      () => newStructuredMergeManager(tc, widgetConvertor(), 'v1', 'v1').apply(empty(), { kind: 'Widget' }, newEmptyManaged(), 'm', false),
      400,
      'BadRequest',
      'Incorrect version specified in apply patch. Specified patch version: , expected: v1',
    ],
    [
      'managedFields in the configuration',
      () => newStructuredMergeManager(tc, widgetConvertor(), v1, v1).apply(empty(), { ...widget(v1, {}), metadata: { name: 'w', managedFields: [] } }, newEmptyManaged(), 'm', false),
      400,
      'BadRequest',
      'metadata.managedFields must be nil',
    ],
    [
      'a field the schema does not declare',
      () => newStructuredMergeManager(tc, widgetConvertor(), v1, v1).apply(empty(), widget(v1, { bogus: 1 }), newEmptyManaged(), 'm', false),
      500,
      '',
      'failed to create typed patch object (ns/w; example.com/v1, Kind=Widget): .spec.bogus: field not declared in schema',
    ],
    [
      'a duplicate in the configuration',
      () => newStructuredMergeManager(tc, widgetConvertor(), v1, v1).apply(empty(), widget(v1, { tags: ['a', 'a'] }), newEmptyManaged(), 'm', false),
      500,
      '',
      'failed to create typed patch object (ns/w; example.com/v1, Kind=Widget): .spec.tags: duplicate entries for key [="a"]',
    ],
    [
      'a kind without a schema',
      () => newStructuredMergeManager(tc, widgetConvertor(), v1, v1).apply(empty(), { apiVersion: v1, kind: 'Gadget' }, newEmptyManaged(), 'm', false),
      500,
      '',
      'failed to create typed patch object (/; example.com/v1, Kind=Gadget): no corresponding type for example.com/v1, Kind=Gadget',
    ],
  ];
  for (const [name, run, code, reason, message] of failures) {
    test(`refuses ${name}`, async () => {
      await assert.rejects(run(), (err: unknown) => {
        const status = toStatusError(err);
        assert.equal(status.code, code);
        assert.equal(status.reason, reason);
        assert.equal(status.message, message);
        assert.equal(err instanceof StatusError, code !== 500);
        return true;
      });
    });
  }

  test('duplicates in the live object are tolerated', async () => {
    const f = newStructuredMergeManager(tc, widgetConvertor(), v1, v1);
    const r = await f.apply(widget(v1, { tags: ['a', 'a'] }), widget(v1, { size: 1 }), newEmptyManaged(), 'm', false);
    assert.deepEqual((r.object?.['spec'] as JSONObject)['size'], 1);
  });

  test('reset fields are owned by nobody through the endpoint', async () => {
    const reset = new Map<APIVersion, FieldSet>([[v1, new FieldSet(makePath('status'))]]);
    const f = newStructuredMergeManager(tc, widgetConvertor(), v1, v1, reset);
    const r = await f.apply(empty(), widget(v1, { size: 1 }, { status: { phase: 'Up' } }), newEmptyManaged(), 'm', false);
    assert.equal(fieldsOf(r.managed, 'm'), '.apiVersion\n.kind\n.metadata.name\n.metadata.namespace\n.spec.size');
  });

  test('the merged object is defaulted in the request version', async () => {
    const seen: string[] = [];
    const defaulter: ObjectDefaulter = (obj) => {
      seen.push(String(obj['apiVersion']));
      const spec = obj['spec'] as JSONObject;
      spec['mode'] ??= 'auto';
    };
    const f = newCRDStructuredMergeManager(tc, widgetConvertor(), v2, v1, undefined, defaulter);
    const r = await f.apply(empty(), widget(v2, { replicas: 1 }), newEmptyManaged(), 'm', false);
    assert.deepEqual(seen, [v2]);
    assert.deepEqual(r.object?.['spec'], { size: 1, mode: 'auto' });
  });

  test('the result shares nothing with a frozen live object', async () => {
    const live = deepFreeze(widget(v1, { size: 1, items: [{ name: 'x', value: '1' }], tags: ['a'] }));
    const f = newStructuredMergeManager(tc, widgetConvertor(), v1, v1);
    const r = await f.apply(live, widget(v1, { mode: 'm' }), newEmptyManaged(), 'm', false);
    assert.ok(r.object !== null);
    const spec = r.object['spec'] as JSONObject;
    (spec['items'] as JSONObject[]).push({ name: 'y' });
    (r.object['metadata'] as JSONObject)['uid'] = 'u';
    assert.deepEqual(live['spec'], { size: 1, items: [{ name: 'x', value: '1' }], tags: ['a'] });
  });
});

/** `m` without the fields the stripmeta layer leaves out of every set (as the layers above this one do). */
function stripMeta(m: Managed): Managed {
  const strip = new FieldSet(makePath('apiVersion'), makePath('kind'), makePath('metadata'), makePath('metadata', 'name'), makePath('metadata', 'namespace'));
  const fields = new Map([...m.fields()].map(([k, vs]) => [k, new VersionedSet(vs.set.difference(strip), vs.apiVersion, vs.applied)]));
  return newManaged(fields, m.times());
}

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null) {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}
