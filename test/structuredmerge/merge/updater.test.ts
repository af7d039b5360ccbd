// The Updater beyond SMD's tables: keys from input are data, conversions may be asynchronous,
// conversion errors are worded as SMD's, and the caller's managers are never modified.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { APIVersion, ManagedFields } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { newExcludeSetFilter, VersionedSet } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import type { Converter } from '../../../runtime/apimachinery/structuredmerge/merge/index.js';
import { Conflict, Conflicts, Updater } from '../../../runtime/apimachinery/structuredmerge/merge/index.js';
import type { TypedValue } from '../../../runtime/apimachinery/structuredmerge/typed/index.js';
import { deducedParseableType } from '../../../runtime/apimachinery/structuredmerge/typed/index.js';
import type { TestCase } from '../fixture/index.js';
import { _NS, _P, Apply, deducedParser, ForceApply, managedFields, runTable, testWithConverter, Update } from '../fixture/index.js';

const protoKeys: Record<string, TestCase> = {
  // __proto__ and constructor are a field and a manager like any other: owned, conflicting,
  // taken by force and pruned, never the prototype.
  proto_fields_and_managers: {
    ops: [
      new Apply({ manager: '__proto__', apiVersion: 'v1', object: `{"__proto__": {"a": 1}, "constructor": "x", "keep": 1}` }),
      new Apply({
        manager: 'constructor',
        apiVersion: 'v1',
        object: `{"constructor": "y"}`,
        conflicts: [new Conflict('__proto__', _P('constructor'))],
      }),
      new ForceApply({ manager: 'constructor', apiVersion: 'v1', object: `{"constructor": "y"}` }),
      new Apply({ manager: '__proto__', apiVersion: 'v1', object: `{"keep": 1}` }),
    ],
    object: `{"constructor": "y", "keep": 1}`,
    apiVersion: 'v1',
    // An object literal's __proto__ would set its prototype: the managers are built as a Map.
    managed: new Map([
      ['__proto__', new VersionedSet(_NS(_P('keep')), 'v1', true)],
      ['constructor', new VersionedSet(_NS(_P('constructor')), 'v1', true)],
    ]),
  },
  update_of_proto_field: {
    ops: [
      new Update({ manager: 'hasOwnProperty', apiVersion: 'v1', object: `{"__proto__": {"toString": 1}}` }),
      new Update({ manager: 'other', apiVersion: 'v1', object: `{"__proto__": {"toString": 2}}` }),
    ],
    object: `{"__proto__": {"toString": 2}}`,
    apiVersion: 'v1',
    managed: managedFields({
      hasOwnProperty: new VersionedSet(_NS(_P('__proto__')), 'v1', false),
      other: new VersionedSet(_NS(_P('__proto__', 'toString')), 'v1', false),
    }),
  },
};

describe('keys from input', () => runTable(protoKeys, deducedParser));

/** The dummy converter, answering through a promise as a webhook conversion does. */
const asyncConverter: Converter = {
  async convert(v: TypedValue, version: APIVersion): Promise<TypedValue> {
    await new Promise((resolve) => setImmediate(resolve));
    if (version.length === 0) throw new Error('cannot convert to invalid version: ""');
    return v;
  },
  isMissingVersionError: () => false,
};

test('an asynchronous converter', () =>
  testWithConverter(
    {
      ops: [
        new Apply({ manager: 'a', apiVersion: 'v1', object: `{"x": 1, "y": 1}` }),
        new Update({ manager: 'c', apiVersion: 'v2', object: `{"x": 1, "y": 2}` }),
        new Apply({ manager: 'a', apiVersion: 'v1', object: `{"x": 1}`, conflicts: [] }),
        new Apply({ manager: 'b', apiVersion: 'v2', object: `{"y": 3}`, conflicts: [new Conflict('c', _P('y'))] }),
      ],
      object: `{"x": 1, "y": 2}`,
      apiVersion: 'v1',
      managed: managedFields({ a: new VersionedSet(_NS(_P('x')), 'v1', true), c: new VersionedSet(_NS(_P('y')), 'v2', false) }),
    },
    deducedParser,
    asyncConverter,
  ));

describe('errors', () => {
  const parse = (y: string): TypedValue => deducedParseableType.fromYAML(y);
  const failing = (message: string): Converter => ({
    convert: (v, version) => {
      if (version === 'v1') return v;
      throw new Error(message);
    },
    isMissingVersionError: () => false,
  });
  const otherVersion: ManagedFields = managedFields({ other: new VersionedSet(_NS(_P('a')), 'v1', false) });

  test('a failing conversion of the compared objects', async () => {
    const updater = new Updater({ converter: failing('boom') });
    const managers = managedFields({ other: new VersionedSet(_NS(_P('a')), 'v2', false) });
    // The live object is converted for the schema reconciliation first: SMD returns that error as it is.
    await assert.rejects(updater.update(parse('{"a": 1}'), parse('{"a": 2}'), 'v1', managers, 'me'), { message: 'boom' });
  });

  test('a failing conversion while pruning', async () => {
    let calls = 0;
    const converter: Converter = {
      convert: (v, version) => {
        if (version === 'v2' && ++calls > 1) throw new Error('boom');
        return v;
      },
      isMissingVersionError: () => false,
    };
    const updater = new Updater({ converter });
    const managers = managedFields({ me: new VersionedSet(_NS(_P('a')), 'v2', true) });
    await assert.rejects(updater.apply(parse('{"a": 1}'), parse('{"b": 1}'), 'v1', managers, 'me', false), {
      message: 'failed to prune fields: failed to convert merged object to last applied version: boom',
    });
  });

  test('both ignore options', async () => {
    const updater = new Updater({
      converter: failing('unused'),
      ignoredFields: new Map([['v1', _NS(_P('a'))]]),
      ignoreFilter: new Map([['v1', newExcludeSetFilter(_NS(_P('a')))]]),
    });
    await assert.rejects(updater.update(parse('{}'), parse('{"a": 1}'), 'v1', otherVersion, 'me'), { message: 'IgnoreFilter and IgnoreFilter may not both be set' });
  });

  test("conflicts are thrown as Conflicts and the caller's managers are left as they were", async () => {
    const updater = new Updater({ converter: failing('unused') });
    const managers = managedFields({ other: new VersionedSet(_NS(_P('a')), 'v1', false) });
    const err: unknown = await updater.apply(parse('{"a": 1}'), parse('{"a": 2}'), 'v1', managers, 'me', false).catch((e: unknown) => e);
    assert.ok(err instanceof Conflicts);
    assert.equal(err.message, 'conflict with "other": .a');
    const forced = await updater.apply(parse('{"a": 1}'), parse('{"a": 2}'), 'v1', managers, 'me', true);
    assert.deepEqual([...forced.managers.keys()], ['me']);
    assert.deepEqual([...managers.keys()], ['other']);
    assert.ok(managers.get('other')?.set.equals(_NS(_P('a'))));
  });
});
