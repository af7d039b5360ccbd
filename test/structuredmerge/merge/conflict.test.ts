// Ported from sigs.k8s.io/structured-merge-diff merge/conflict_test.go.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VersionedSet } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { Conflict, Conflicts, conflictsFromManagers } from '../../../runtime/apimachinery/structuredmerge/merge/index.js';
import { _KBF, _NS, _P, managedFields } from '../fixture/index.js';

const bobAndAlice = (): Conflicts =>
  conflictsFromManagers(
    managedFields({
      Bob: new VersionedSet(_NS(_P('key'), _P('list', _KBF('key', 'a', 'id', 2), 'id')), 'v1', false),
      Alice: new VersionedSet(_NS(_P('value'), _P('list', _KBF('key', 'a', 'id', 2), 'key')), 'v1', false),
    }),
  );

test('TestNewFromSets', () => {
  const wanted = `conflicts with "Alice":
- .value
- .list[id=2,key="a"].key
conflicts with "Bob":
- .key
- .list[id=2,key="a"].id`;
  assert.equal(bobAndAlice().message, wanted);
});

test('TestToSet', () => {
  const expected = _NS(_P('key'), _P('value'), _P('list', _KBF('key', 'a', 'id', 2), 'id'), _P('list', _KBF('key', 'a', 'id', 2), 'key'));
  const actual = bobAndAlice().toSet();
  assert.ok(expected.equals(actual), `expected\n${expected.toString()}\n, but got\n${actual.toString()}\n`);
});

test('TestConflictsFromManagers', () => {
  const got = conflictsFromManagers(
    managedFields({
      Bob: new VersionedSet(_NS(_P('obj', 'template', 'obj', 'list', _KBF('name', 'a'), 'id'), _P('obj', 'template', 'obj', 'list', _KBF('name', 'a'), 'key')), 'v1', false),
    }),
  );
  const wanted = `conflicts with "Bob":
- .obj.template.obj.list[name="a"].id
- .obj.template.obj.list[name="a"].key`;
  assert.equal(got.message, wanted);
});

// Beyond the Go file: one conflict reads as Conflict.Error, equality is by manager and path, and
// a manager named __proto__ is a manager like any other.
test('a single conflict and equality', () => {
  const one = new Conflicts([new Conflict('__proto__', _P('spec', 'replicas'))]);
  assert.equal(one.message, 'conflict with "__proto__": .spec.replicas');
  assert.ok(one.equals(new Conflicts([new Conflict('__proto__', _P('spec', 'replicas'))])));
  assert.ok(!one.equals(new Conflicts([new Conflict('other', _P('spec', 'replicas'))])));
  const fromManagers = conflictsFromManagers(new Map([['__proto__', new VersionedSet(_NS(_P('a')), 'v1', false)]]));
  assert.equal(fromManagers.message, 'conflict with "__proto__": .a');
});
