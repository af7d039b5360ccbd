// Ported from sigs.k8s.io/structured-merge-diff merge/ignore_test.go.
import { describe } from 'node:test';
import { VersionedSet } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import type { TestCase } from '../fixture/index.js';
import { newExcludeSetFilter } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { RepeatingConverter } from './converters.js';
import { nestedTypeParser } from './parsers.js';
import { Apply, Update, deducedParser, runTable, managedFields, _NS, _P } from '../fixture/index.js';

/** A per-version map (Go's map[APIVersion]…) from a record. */
function perVersion<T>(r: Readonly<Record<string, T>>): Map<string, T> {
  return new Map(Object.entries(r));
}

const testIgnoreFilter: Record<string, TestCase> = {
  update_does_not_own_ignored: {
    apiVersion: 'v1',
    ops: [
      new Update({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						numeric: 1
						string: "some string"
					`,
      }),
    ],
    object: `
				numeric: 1
				string: "some string"
			`,
    managed: managedFields({
      default: new VersionedSet(_NS(_P('numeric')), 'v1', false),
    }),
    ignoreFilter: perVersion({
      v1: newExcludeSetFilter(_NS(_P('string'))),
    }),
  },
  update_does_not_own_deep_ignored: {
    apiVersion: 'v1',
    ops: [
      new Update({
        manager: 'default',
        apiVersion: 'v1',
        object: `{"numeric": 1, "obj": {"string": "foo", "numeric": 2}}`,
      }),
    ],
    object: `{"numeric": 1, "obj": {"string": "foo", "numeric": 2}}`,
    managed: managedFields({
      default: new VersionedSet(_NS(_P('numeric')), 'v1', false),
    }),
    ignoreFilter: perVersion({
      v1: newExcludeSetFilter(_NS(_P('obj'))),
    }),
  },
  apply_does_not_own_ignored: {
    apiVersion: 'v1',
    ops: [
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						numeric: 1
						string: "some string"
					`,
      }),
    ],
    object: `
				numeric: 1
				string: "some string"
			`,
    managed: managedFields({
      default: new VersionedSet(_NS(_P('numeric')), 'v1', true),
    }),
    ignoreFilter: perVersion({
      v1: newExcludeSetFilter(_NS(_P('string'))),
    }),
  },
  apply_does_not_own_deep_ignored: {
    apiVersion: 'v1',
    ops: [
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `{"numeric": 1, "obj": {"string": "foo", "numeric": 2}}`,
      }),
    ],
    object: `{"numeric": 1, "obj": {"string": "foo", "numeric": 2}}`,
    managed: managedFields({
      default: new VersionedSet(_NS(_P('numeric')), 'v1', true),
    }),
    ignoreFilter: perVersion({
      v1: newExcludeSetFilter(_NS(_P('obj'))),
    }),
  },
};

describe('TestIgnoreFilter', () => runTable(testIgnoreFilter, deducedParser));

const testIgnoredFields: Record<string, TestCase> = {
  update_does_not_own_ignored: {
    apiVersion: 'v1',
    ops: [
      new Update({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						numeric: 1
						string: "some string"
					`,
      }),
    ],
    object: `
				numeric: 1
				string: "some string"
			`,
    managed: managedFields({
      default: new VersionedSet(_NS(_P('numeric')), 'v1', false),
    }),
    ignoredFields: perVersion({
      v1: _NS(_P('string')),
    }),
  },
  update_does_not_own_deep_ignored: {
    apiVersion: 'v1',
    ops: [
      new Update({
        manager: 'default',
        apiVersion: 'v1',
        object: `{"numeric": 1, "obj": {"string": "foo", "numeric": 2}}`,
      }),
    ],
    object: `{"numeric": 1, "obj": {"string": "foo", "numeric": 2}}`,
    managed: managedFields({
      default: new VersionedSet(_NS(_P('numeric')), 'v1', false),
    }),
    ignoredFields: perVersion({
      v1: _NS(_P('obj')),
    }),
  },
  apply_does_not_own_ignored: {
    apiVersion: 'v1',
    ops: [
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						numeric: 1
						string: "some string"
					`,
      }),
    ],
    object: `
				numeric: 1
				string: "some string"
			`,
    managed: managedFields({
      default: new VersionedSet(_NS(_P('numeric')), 'v1', true),
    }),
    ignoredFields: perVersion({
      v1: _NS(_P('string')),
    }),
  },
  apply_does_not_own_deep_ignored: {
    apiVersion: 'v1',
    ops: [
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `{"numeric": 1, "obj": {"string": "foo", "numeric": 2}}`,
      }),
    ],
    object: `{"numeric": 1, "obj": {"string": "foo", "numeric": 2}}`,
    managed: managedFields({
      default: new VersionedSet(_NS(_P('numeric')), 'v1', true),
    }),
    ignoredFields: perVersion({
      v1: _NS(_P('obj')),
    }),
  },
};

describe('TestIgnoredFields', () => runTable(testIgnoredFields, deducedParser));

const testFilteredFieldsUsesVersions: Record<string, TestCase> = {
  does_use_ignored_fields_versions: {
    ops: [
      new Apply({
        manager: 'apply-one',
        object: `
						mapOfMapsRecursive:
						  a:
						    b:
						  c:
						    d:
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'apply-two',
        object: `
						mapOfMapsRecursive:
						  aa:
						  cc:
						    dd:
					`,
        apiVersion: 'v2',
      }),
      new Apply({
        manager: 'apply-one',
        object: `
						mapOfMapsRecursive:
					`,
        apiVersion: 'v4',
      }),
    ],
    // note that this still contains cccc due to ignored fields not being removed from the update result
    object: `
				mapOfMapsRecursive:
				  aaaa:
				  cccc:
				    dddd:
			`,
    apiVersion: 'v4',
    managed: managedFields({
      'apply-one': new VersionedSet(_NS(_P('mapOfMapsRecursive')), 'v4', false),
      'apply-two': new VersionedSet(_NS(_P('mapOfMapsRecursive', 'aa')), 'v2', false),
    }),
    ignoreFilter: perVersion({
      v1: newExcludeSetFilter(_NS(_P('mapOfMapsRecursive', 'c'))),
      v2: newExcludeSetFilter(_NS(_P('mapOfMapsRecursive', 'cc'))),
      v3: newExcludeSetFilter(_NS(_P('mapOfMapsRecursive', 'ccc'))),
      v4: newExcludeSetFilter(_NS(_P('mapOfMapsRecursive', 'cccc'))),
    }),
  },
  update_does_not_steal_ignored: {
    apiVersion: 'v1',
    ops: [
      new Update({
        manager: 'update-one',
        object: `
						mapOfMapsRecursive:
						  a:
						    b:
						  c:
						    d:
					`,
        apiVersion: 'v1',
      }),
      new Update({
        manager: 'update-two',
        object: `
						mapOfMapsRecursive:
						  a:
						    b:
						  c:
						    e:
					`,
        apiVersion: 'v2',
      }),
    ],
    object: `
				mapOfMapsRecursive:
				  a:
				    b:
				  c:
				    e:
			`,
    managed: managedFields({
      'update-one': new VersionedSet(_NS(_P('mapOfMapsRecursive'), _P('mapOfMapsRecursive', 'a'), _P('mapOfMapsRecursive', 'a', 'b'), _P('mapOfMapsRecursive', 'c')), 'v1', false),
      'update-two': new VersionedSet(_NS(_P('mapOfMapsRecursive', 'a'), _P('mapOfMapsRecursive', 'a', 'b')), 'v2', false),
    }),
    ignoreFilter: perVersion({
      v2: newExcludeSetFilter(_NS(_P('mapOfMapsRecursive', 'c'))),
    }),
  },
  apply_does_not_steal_ignored: {
    apiVersion: 'v1',
    ops: [
      new Apply({
        manager: 'apply-one',
        object: `
						mapOfMapsRecursive:
						  a:
						    b:
						  c:
						    d:
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'apply-two',
        object: `
						mapOfMapsRecursive:
						  a:
						    b:
						  c:
						    e:
					`,
        apiVersion: 'v2',
      }),
    ],
    object: `
				mapOfMapsRecursive:
				  a:
				    b:
				  c:
				    d:
			`,
    managed: managedFields({
      'apply-one': new VersionedSet(_NS(_P('mapOfMapsRecursive', 'a'), _P('mapOfMapsRecursive', 'a', 'b'), _P('mapOfMapsRecursive', 'c'), _P('mapOfMapsRecursive', 'c', 'd')), 'v1', false),
      'apply-two': new VersionedSet(_NS(_P('mapOfMapsRecursive', 'a'), _P('mapOfMapsRecursive', 'a', 'b')), 'v2', false),
    }),
    ignoreFilter: perVersion({
      v2: newExcludeSetFilter(_NS(_P('mapOfMapsRecursive', 'c'))),
    }),
  },
};

describe('TestFilteredFieldsUsesVersions', () => runTable(testFilteredFieldsUsesVersions, nestedTypeParser, new RepeatingConverter(nestedTypeParser)));
