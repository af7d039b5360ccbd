// Ported from sigs.k8s.io/structured-merge-diff merge/obsolete_versions_test.go.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { APIVersion } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { managedFieldsDifference, managedFieldsString, VersionedSet } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import type { Converter } from '../../../runtime/apimachinery/structuredmerge/merge/index.js';
import { Updater } from '../../../runtime/apimachinery/structuredmerge/merge/index.js';
import type { TypedValue } from '../../../runtime/apimachinery/structuredmerge/typed/index.js';
import { Parser as SchemaParser } from '../../../runtime/apimachinery/structuredmerge/typed/index.js';
import { _NS, _P, deducedParser, managedFields, SameVersionParser, State } from '../fixture/index.js';

/** Converts to the listed versions only (as the object it is); any other version is missing. */
class SpecificVersionConverter implements Converter {
  constructor(public acceptedVersions: APIVersion[]) {}
  convert(object: TypedValue, version: APIVersion): TypedValue {
    if (this.acceptedVersions.includes(version)) return object;
    throw new Error(`Unknown version: ${version}`);
  }
  isMissingVersionError(err: unknown): boolean {
    return err !== undefined && err !== null;
  }
}

function newState(parser: ConstructorParameters<typeof State>[0], converter: Converter): State {
  return new State(parser, new Updater({ converter }), converter);
}

// A manager whose version is no longer served is dropped.
test('TestObsoleteVersions', async () => {
  const converter = new SpecificVersionConverter(['v1', 'v2']);
  const state = newState(deducedParser, converter);
  await state.update(`{"v1": 0}`, 'v1', 'v1');
  await state.update(`{"v1": 0, "v2": 0}`, 'v2', 'v2');
  // v1 goes, v3 comes.
  converter.acceptedVersions = ['v2', 'v3'];
  await state.update(`{"v1": 0, "v2": 0, "v3": 0}`, 'v3', 'v3');

  const managers = managedFields({
    v2: new VersionedSet(_NS(_P('v2')), 'v2', false),
    v3: new VersionedSet(_NS(_P('v3')), 'v3', false),
  });
  const diff = managedFieldsDifference(state.managers, managers);
  assert.equal(diff.size, 0, `expected Managers to be ${managedFieldsString(managers)}, got ${managedFieldsString(state.managers)}`);
});

test('TestApplyObsoleteVersion', async () => {
  const converter = new SpecificVersionConverter(['v1']);
  const tparser = SchemaParser.fromYAML(`types:
- name: sets
  map:
    fields:
    - name: list
      type:
        list:
          elementType:
            scalar: string
          elementRelationship: associative`);
  const state = newState(new SameVersionParser(tparser.type('sets')), converter);
  await state.apply(`{"list": ["a", "b", "c", "d"]}`, 'v1', 'apply', false);
  // v1 goes, v2 comes: the last applied set is at a missing version, so nothing is pruned.
  converter.acceptedVersions = ['v2'];
  await state.apply(`{"list": ["a"]}`, 'v2', 'apply', false);
  const comparison = await state.compareLive(`{"list": ["a", "b", "c", "d"]}`, 'v2');
  assert.equal(comparison, '', `Unexpected object:\n${comparison}`);
});
