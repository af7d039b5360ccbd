// Ports of apimachinery's meta/priority_test.go and multirestmapper_test.go. The Go cases
// "… + error" (a delegate returning results and an error at once) have no counterpart: these
// mappers throw or answer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  AmbiguousKindError,
  ANY,
  MultiRESTMapper,
  NoKindMatchError,
  PriorityRESTMapper,
  type GroupKind,
  type GroupVersionKind,
  type GroupVersionResource,
  type RESTMapping,
  type StaticRESTMapper,
} from '../../../runtime/client/restmapper/index.js';

/** meta's fixedRESTMapper: fixed answers, or a fixed error. */
function fixed(o: { resourcesFor?: GroupVersionResource[]; kindsFor?: GroupVersionKind[]; mappings?: RESTMapping[]; err?: Error }): StaticRESTMapper {
  const answer = <T>(v: T | undefined): T => {
    if (o.err !== undefined) throw o.err;
    return v as T;
  };
  return {
    kindFor: () => answer(o.kindsFor?.[0]),
    kindsFor: () => answer(o.kindsFor ?? []),
    resourceFor: () => answer(o.resourcesFor?.[0]),
    resourcesFor: () => answer(o.resourcesFor ?? []),
    restMapping: () => answer(o.mappings?.[0]),
    restMappings: () => answer(o.mappings ?? []),
    resourceSingularizer: () => answer(''),
  };
}

const gvr = (group: string, version: string, resource: string): GroupVersionResource => ({ group, version, resource });
const gvk = (group: string, version: string, kind: string): GroupVersionKind => ({ group, version, kind });
const empty = gvr('', '', '');

describe('PriorityRESTMapper (apimachinery meta/priority_test.go)', () => {
  it('TestPriorityRESTMapperResourceForErrorHandling', () => {
    const two = [gvr('one', 'a', 'first'), gvr('two', 'b', 'second')];
    const cases: { name: string; delegate: StaticRESTMapper; patterns?: GroupVersionResource[]; result?: GroupVersionResource; err?: string }[] = [
      { name: 'error', delegate: fixed({ err: new Error('delegateError') }), err: 'delegateError' },
      { name: 'single hit', delegate: fixed({ resourcesFor: [gvr('', '', 'single-hit')] }), result: gvr('', '', 'single-hit') },
      { name: 'ambiguous match', delegate: fixed({ resourcesFor: two }), err: 'matches multiple resources' },
      { name: 'group selection', delegate: fixed({ resourcesFor: two }), patterns: [gvr('one', ANY, ANY)], result: two[0] },
      { name: 'empty match continues', delegate: fixed({ resourcesFor: two }), patterns: [gvr('fail', ANY, ANY), gvr('one', ANY, ANY)], result: two[0] },
      {
        name: 'group followed by version selection',
        delegate: fixed({ resourcesFor: [...two, gvr('one', 'c', 'third')] }),
        patterns: [gvr('one', ANY, ANY), gvr(ANY, 'a', ANY)],
        result: two[0],
      },
      { name: 'resource selection', delegate: fixed({ resourcesFor: [gvr('one', 'a', 'first'), gvr('one', 'a', 'second')] }), patterns: [gvr(ANY, ANY, 'second')], result: gvr('one', 'a', 'second') },
    ];
    for (const c of cases) {
      const m = new PriorityRESTMapper(c.delegate, c.patterns ?? [], []);
      if (c.err !== undefined)
        assert.throws(
          () => m.resourceFor(empty),
          (e: Error) => e.message.includes(c.err ?? ''),
          c.name,
        );
      else assert.deepEqual(m.resourceFor(empty), c.result, c.name);
    }
  });

  it('TestPriorityRESTMapperKindForErrorHandling', () => {
    const two = [gvk('one', 'a', 'first'), gvk('two', 'b', 'second')];
    assert.throws(() => new PriorityRESTMapper(fixed({ kindsFor: two }), [], []).kindFor(empty), /matches multiple kinds/);
    assert.deepEqual(new PriorityRESTMapper(fixed({ kindsFor: two }), [], [gvk('fail', ANY, ANY), gvk('one', ANY, ANY)]).kindFor(empty), two[0]);
    assert.deepEqual(new PriorityRESTMapper(fixed({ kindsFor: [gvk('one', 'a', 'first'), gvk('one', 'a', 'second')] }), [], [gvk(ANY, ANY, 'second')]).kindFor(empty), gvk('one', 'a', 'second'));
  });

  const mapping = (k: GroupVersionKind): RESTMapping => ({ groupVersionKind: k, resource: empty, scope: 'namespace' });
  const mapping1 = mapping(gvk('', 'v1alpha1', 'Foo'));
  const mapping2 = mapping(gvk('', 'v1', 'Foo'));
  const mapping3 = mapping(gvk('other', 'v1', 'Foo'));
  const all = new MultiRESTMapper([fixed({ mappings: [mapping1] }), fixed({ mappings: [mapping2] }), fixed({ mappings: [mapping3] })]);
  const foo: GroupKind = { group: '', kind: 'Foo' };

  it('TestPriorityRESTMapperRESTMapping', () => {
    assert.throws(() => new PriorityRESTMapper(new MultiRESTMapper([]), [], []).restMapping(foo), { message: new NoKindMatchError(foo).message });
    assert.throws(() => new PriorityRESTMapper(new MultiRESTMapper([fixed({ err: new NoKindMatchError({ group: '', kind: 'IGNORE_THIS' }) })]), [], []).restMapping(foo), {
      message: 'no matches for kind "Foo" in group ""',
    });
    assert.throws(() => new PriorityRESTMapper(new MultiRESTMapper([fixed({ err: new Error('fail on this') }), fixed({ mappings: [mapping1] })]), [], []).restMapping(foo), {
      message: 'fail on this',
    });
    assert.throws(() => new PriorityRESTMapper(all, [], []).restMapping(foo), {
      message: new AmbiguousKindError(gvk('', '', 'Foo'), [], [mapping1.groupVersionKind, mapping2.groupVersionKind, mapping3.groupVersionKind]).message,
    });
    assert.equal(new PriorityRESTMapper(all, [], []).restMapping(foo, 'v1alpha1') === mapping1, true, 'a version the caller names comes first');
    assert.equal(new PriorityRESTMapper(fixed({ mappings: [mapping1] }), [], []).restMapping(foo), mapping1);
    assert.equal(new PriorityRESTMapper(all, [], [gvk('', 'v1', ANY), gvk('', 'v1alpha1', ANY)]).restMapping(foo), mapping2);
    assert.equal(new PriorityRESTMapper(all, [], [gvk(ANY, 'v1', ANY), gvk('other', ANY, ANY)]).restMapping(foo), mapping3);
    assert.equal(new AmbiguousKindError(gvk('', '', 'Foo'), [], [gvk('', 'v1', 'Foo')]).message, '/, Kind=Foo matches multiple kinds [/v1, Kind=Foo]');
  });

  it('TestPriorityRESTMapperRESTMappingHonorsUserVersion', () => {
    const v2alpha1 = mapping(gvk('Bar', 'v2alpha1', 'Foo'));
    const v1 = mapping(gvk('Bar', 'v1', 'Foo'));
    const m = new PriorityRESTMapper(new MultiRESTMapper([fixed({ mappings: [v2alpha1] }), fixed({ mappings: [v1] })]), [], [gvk('Bar', 'v2alpha1', ANY), gvk('Bar', ANY, ANY)]);
    assert.equal(m.restMapping({ group: 'Bar', kind: 'Foo' }, 'v1'), v1);
    assert.equal(m.restMapping({ group: 'Bar', kind: 'Foo' }, 'v2alpha1'), v2alpha1);
  });
});

describe('MultiRESTMapper (apimachinery meta/multirestmapper_test.go)', () => {
  it('TestMultiRESTMapperResourcesFor: union without duplicates, no-match mappers skipped, other errors end it', () => {
    const m = new MultiRESTMapper([
      fixed({ resourcesFor: [gvr('one', 'a', 'first')] }),
      fixed({ err: new NoKindMatchError({ group: '', kind: 'x' }) }),
      fixed({ resourcesFor: [gvr('one', 'a', 'first'), gvr('two', 'b', 'second')] }),
    ]);
    assert.deepEqual(m.resourcesFor(gvr('', '', 'x')), [gvr('one', 'a', 'first'), gvr('two', 'b', 'second')]);
    assert.throws(() => new MultiRESTMapper([fixed({ err: new Error('fail') })]).resourcesFor(gvr('', '', 'x')), { message: 'fail' });
    assert.throws(() => new MultiRESTMapper([]).resourcesFor(gvr('', '', 'x')), { message: 'no matches for /, Resource=x' });
  });
});
