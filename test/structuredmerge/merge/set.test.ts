// Ported from sigs.k8s.io/structured-merge-diff merge/set_test.go.
import { describe } from 'node:test';
import { VersionedSet } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { Parser as SchemaParser } from '../../../runtime/apimachinery/structuredmerge/typed/index.js';
import type { TestCase } from '../fixture/index.js';
import { Apply, Update, SameVersionParser, runTable, managedFields, _NS, _P, _V } from '../fixture/index.js';

const setFieldsParser = new SameVersionParser(
  SchemaParser.fromYAML(
    `types:
- name: sets
  map:
    fields:
    - name: list
      type:
        list:
          elementType:
            scalar: string
          elementRelationship: associative`,
  ).type('sets'),
);

const testUpdateSet: Record<string, TestCase> = {
  apply_twice: {
    ops: [
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						list:
						- a
						- c
					`,
      }),
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						list:
						- a
						- b
						- c
						- d
					`,
      }),
    ],
    object: `
				list:
				- a
				- b
				- c
				- d
			`,
    apiVersion: 'v1',
    managed: managedFields({
      default: new VersionedSet(_NS(_P('list', _V('a')), _P('list', _V('b')), _P('list', _V('c')), _P('list', _V('d'))), 'v1', false),
    }),
  },
  apply_update_apply_no_overlap: {
    ops: [
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						list:
						- a
						- c
					`,
      }),
      new Update({
        manager: 'controller',
        apiVersion: 'v1',
        object: `
						list:
						- a
						- b
						- c
						- d
					`,
      }),
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						list:
						- a
						- aprime
						- c
						- cprime
					`,
      }),
    ],
    object: `
				list:
				- a
				- b
				- aprime
				- c
				- d
				- cprime
			`,
    apiVersion: 'v1',
    managed: managedFields({
      default: new VersionedSet(_NS(_P('list', _V('a')), _P('list', _V('aprime')), _P('list', _V('c')), _P('list', _V('cprime'))), 'v1', false),
      controller: new VersionedSet(_NS(_P('list', _V('b')), _P('list', _V('d'))), 'v1', false),
    }),
  },
  apply_update_apply_no_overlap_and_different_version: {
    ops: [
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						list:
						- a
						- c
					`,
      }),
      new Update({
        manager: 'controller',
        apiVersion: 'v2',
        object: `
						list:
						- a
						- b
						- c
						- d
					`,
      }),
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						list:
						- a
						- aprime
						- c
						- cprime
					`,
      }),
    ],
    object: `
				list:
				- a
				- b
				- aprime
				- c
				- d
				- cprime
			`,
    apiVersion: 'v1',
    managed: managedFields({
      default: new VersionedSet(_NS(_P('list', _V('a')), _P('list', _V('aprime')), _P('list', _V('c')), _P('list', _V('cprime'))), 'v1', false),
      controller: new VersionedSet(_NS(_P('list', _V('b')), _P('list', _V('d'))), 'v2', false),
    }),
  },
  apply_update_apply_with_overlap: {
    ops: [
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						list:
						- a
						- c
					`,
      }),
      new Update({
        manager: 'controller',
        apiVersion: 'v1',
        object: `
						list:
						- a
						- b
						- c
						- d
					`,
      }),
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						list:
						- a
						- b
						- c
					`,
      }),
    ],
    object: `
				list:
				- a
				- b
				- c
				- d
			`,
    apiVersion: 'v1',
    managed: managedFields({
      default: new VersionedSet(_NS(_P('list', _V('a')), _P('list', _V('b')), _P('list', _V('c'))), 'v1', false),
      controller: new VersionedSet(_NS(_P('list', _V('b')), _P('list', _V('d'))), 'v1', false),
    }),
  },
  apply_update_apply_with_overlap_and_different_version: {
    ops: [
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						list:
						- a
						- c
					`,
      }),
      new Update({
        manager: 'controller',
        apiVersion: 'v2',
        object: `
						list:
						- a
						- b
						- c
						- d
					`,
      }),
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						list:
						- a
						- b
						- c
					`,
      }),
    ],
    object: `
				list:
				- a
				- b
				- c
				- d
			`,
    apiVersion: 'v1',
    managed: managedFields({
      default: new VersionedSet(_NS(_P('list', _V('a')), _P('list', _V('b')), _P('list', _V('c'))), 'v1', false),
      controller: new VersionedSet(_NS(_P('list', _V('b')), _P('list', _V('d'))), 'v2', false),
    }),
  },
  apply_twice_reorder: {
    ops: [
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						list:
						- a
						- b
						- c
						- d
					`,
      }),
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						list:
						- a
						- d
						- c
						- b
					`,
      }),
    ],
    object: `
				list:
				- a
				- d
				- c
				- b
			`,
    apiVersion: 'v1',
    managed: managedFields({
      default: new VersionedSet(_NS(_P('list', _V('a')), _P('list', _V('b')), _P('list', _V('c')), _P('list', _V('d'))), 'v1', false),
    }),
  },
  apply_update_apply_reorder: {
    ops: [
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						list:
						- a
						- b
						- c
						- d
					`,
      }),
      new Update({
        manager: 'controller',
        apiVersion: 'v1',
        object: `
						list:
						- a
						- d
						- c
						- b
					`,
      }),
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						list:
						- a
						- b
						- c
						- d
					`,
      }),
    ],
    object: `
				list:
				- a
				- b
				- c
				- d
			`,
    apiVersion: 'v1',
    managed: managedFields({
      default: new VersionedSet(_NS(_P('list', _V('a')), _P('list', _V('b')), _P('list', _V('c')), _P('list', _V('d'))), 'v1', false),
    }),
  },
  apply_update_apply_reorder_across_versions: {
    ops: [
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						list:
						- a
						- b
						- c
						- d
					`,
      }),
      new Update({
        manager: 'controller',
        apiVersion: 'v1',
        object: `
						list:
						- a
						- d
						- c
						- b
					`,
      }),
      new Apply({
        manager: 'default',
        apiVersion: 'v2',
        object: `
						list:
						- a
						- b
						- c
						- d
					`,
      }),
    ],
    object: `
				list:
				- a
				- b
				- c
				- d
			`,
    apiVersion: 'v1',
    managed: managedFields({
      default: new VersionedSet(_NS(_P('list', _V('a')), _P('list', _V('b')), _P('list', _V('c')), _P('list', _V('d'))), 'v2', false),
    }),
  },
  apply_twice_remove: {
    ops: [
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						list:
						- a
						- b
						- c
						- d
					`,
      }),
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						list:
						- a
						- c
					`,
      }),
    ],
    object: `
				list:
				- a
				- c
			`,
    apiVersion: 'v1',
    managed: managedFields({
      default: new VersionedSet(_NS(_P('list', _V('a')), _P('list', _V('c'))), 'v1', false),
    }),
  },
  apply_twice_remove_across_versions: {
    ops: [
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						list:
						- a
						- b
						- c
						- d
					`,
      }),
      new Apply({
        manager: 'default',
        apiVersion: 'v2',
        object: `
						list:
						- a
						- c
						- e
					`,
      }),
    ],
    object: `
				list:
				- a
				- c
				- e
			`,
    apiVersion: 'v1',
    managed: managedFields({
      default: new VersionedSet(_NS(_P('list', _V('a')), _P('list', _V('c')), _P('list', _V('e'))), 'v2', false),
    }),
  },
};

describe('TestUpdateSet', () => runTable(testUpdateSet, setFieldsParser));
