// Ported from sigs.k8s.io/structured-merge-diff merge/extract_apply_test.go.
import { describe } from 'node:test';
import { VersionedSet } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { Parser as SchemaParser } from '../../../runtime/apimachinery/structuredmerge/typed/index.js';
import type { TestCase } from '../fixture/index.js';
import { Apply, ExtractApply, Update, SameVersionParser, runTable, managedFields, _NS, _P, _V } from '../fixture/index.js';

const extractParser = new SameVersionParser(
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
          elementRelationship: associative
    - name: atomicList
      type:
        list:
          elementType:
            scalar: string
          elementRelationship: atomic
    - name: map
      type:
        map:
          elementType:
            scalar: string
          elementRelationship: separable
    - name: atomicMap
      type:
        map:
          elementType:
            scalar: string
          elementRelationship: atomic`,
  ).type('sets'),
);

const testExtractApply: Record<string, TestCase> = {
  apply_one_extract_apply_one_own_both: {
    ops: [
      new Apply({
        manager: 'default',
        object: `
						list:
						- a
					`,
        apiVersion: 'v1',
      }),
      new ExtractApply({
        manager: 'default',
        object: `
							list:
							- b
						`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				list:
				- a
				- b
			`,
    apiVersion: 'v1',
    managed: managedFields({
      default: new VersionedSet(_NS(_P('list', _V('a')), _P('list', _V('b'))), 'v1', false),
    }),
  },
  extract_apply_from_beginning: {
    ops: [
      new ExtractApply({
        manager: 'default',
        object: `
						list:
						- a
					`,
        apiVersion: 'v1',
      }),
      new ExtractApply({
        manager: 'default',
        object: `
							list:
							- b
						`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				list:
				- a
				- b
			`,
    apiVersion: 'v1',
    managed: managedFields({
      default: new VersionedSet(_NS(_P('list', _V('a')), _P('list', _V('b'))), 'v1', false),
    }),
  },
  apply_after_extract_remove_fields: {
    ops: [
      new ExtractApply({
        manager: 'default',
        object: `
						list:
						- a
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'default',
        object: `
						list:
						- b
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				list:
				- b
			`,
    apiVersion: 'v1',
    managed: managedFields({
      default: new VersionedSet(_NS(_P('list', _V('b'))), 'v1', false),
    }),
  },
  apply_one_controller_remove_extract_apply_one: {
    ops: [
      new Apply({
        manager: 'default',
        object: `
						list:
						- a
					`,
        apiVersion: 'v1',
      }),
      new Update({
        manager: 'controller',
        object: `
						list:
						 - b
					`,
        apiVersion: 'v1',
      }),
      new ExtractApply({
        manager: 'default',
        object: `
						list:
						- c
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				list:
				- b
				- c
			`,
    apiVersion: 'v1',
    managed: managedFields({
      default: new VersionedSet(_NS(_P('list', _V('c'))), 'v1', false),
      controller: new VersionedSet(_NS(_P('list', _V('b'))), 'v1', false),
    }),
  },
  extract_apply_retain_ownership_after_controller_update: {
    ops: [
      new Apply({
        manager: 'default',
        object: `
						list:
						- a
					`,
        apiVersion: 'v1',
      }),
      new Update({
        manager: 'controller',
        object: `
						list:
						 - a
						 - b
					`,
        apiVersion: 'v1',
      }),
      new ExtractApply({
        manager: 'default',
        object: `
						list:
						- c
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				list:
				- a
				- b
				- c
			`,
    apiVersion: 'v1',
    managed: managedFields({
      default: new VersionedSet(_NS(_P('list', _V('a')), _P('list', _V('c'))), 'v1', false),
      controller: new VersionedSet(_NS(_P('list', _V('b'))), 'v1', false),
    }),
  },
  extract_apply_share_ownership_after_another_apply: {
    ops: [
      new Apply({
        manager: 'apply-one',
        object: `
						list:
						- a
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'apply-two',
        object: `
						list:
						 - a
						 - b
					`,
        apiVersion: 'v1',
      }),
      new ExtractApply({
        manager: 'apply-one',
        object: `
						list:
						- c
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				list:
				- a
				- b
				- c
			`,
    apiVersion: 'v1',
    managed: managedFields({
      'apply-one': new VersionedSet(_NS(_P('list', _V('a')), _P('list', _V('c'))), 'v1', false),
      'apply-two': new VersionedSet(_NS(_P('list', _V('a')), _P('list', _V('b'))), 'v1', false),
    }),
  },
  apply_two_cant_delete_object_also_owned_by_extract_apply: {
    ops: [
      new Apply({
        manager: 'apply-one',
        object: `
						list:
						- a
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'apply-two',
        object: `
						list:
						 - a
						 - b
					`,
        apiVersion: 'v1',
      }),
      new ExtractApply({
        manager: 'apply-one',
        object: `
						list:
						- c
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'apply-two',
        object: `
						list:
						 - b
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				list:
				- a
				- b
				- c
			`,
    apiVersion: 'v1',
    managed: managedFields({
      'apply-one': new VersionedSet(_NS(_P('list', _V('a')), _P('list', _V('c'))), 'v1', false),
      'apply-two': new VersionedSet(_NS(_P('list', _V('b'))), 'v1', false),
    }),
  },
  extract_apply_empty_structure_list: {
    ops: [
      new ExtractApply({
        manager: 'apply-one',
        object: `
						list:
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'apply-two',
        object: `
						list:
						 - a
						 - b
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				list:
				- a
				- b
			`,
    apiVersion: 'v1',
    managed: managedFields({
      'apply-one': new VersionedSet(_NS(_P('list')), 'v1', false),
      'apply-two': new VersionedSet(_NS(_P('list', _V('a')), _P('list', _V('b'))), 'v1', false),
    }),
  },
  extract_apply_empty_structure_remove_list: {
    ops: [
      new ExtractApply({
        manager: 'apply-one',
        object: `
						list:
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'apply-two',
        object: `
						list:
						 - a
						 - b
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'apply-two',
        object: `
						list:
						 - b
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				list:
				- b
			`,
    apiVersion: 'v1',
    managed: managedFields({
      'apply-one': new VersionedSet(_NS(_P('list')), 'v1', false),
      'apply-two': new VersionedSet(_NS(_P('list', _V('b'))), 'v1', false),
    }),
  },
  extract_apply_empty_structure_add_later_list: {
    ops: [
      new ExtractApply({
        manager: 'apply-one',
        object: `
						list:
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'apply-two',
        object: `
						list:
						 - a
						 - b
					`,
        apiVersion: 'v1',
      }),
      new ExtractApply({
        manager: 'apply-one',
        object: `
						list:
						- c
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'apply-two',
        object: `
						list:
						 - b
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				list:
				- b
				- c
			`,
    apiVersion: 'v1',
    managed: managedFields({
      'apply-one': new VersionedSet(_NS(_P('list', _V('c'))), 'v1', false),
      'apply-two': new VersionedSet(_NS(_P('list', _V('b'))), 'v1', false),
    }),
  },
  extract_apply_empty_structure_map: {
    ops: [
      new ExtractApply({
        manager: 'apply-one',
        object: `
						map:
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'apply-two',
        object: `
						map:
						 a: c
						 b: d
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				map:
				  a: c
				  b: d
			`,
    apiVersion: 'v1',
    managed: managedFields({
      'apply-one': new VersionedSet(_NS(_P('map')), 'v1', false),
      'apply-two': new VersionedSet(_NS(_P('map', 'a'), _P('map', 'b')), 'v1', false),
    }),
  },
  extract_apply_empty_structure_remove_map: {
    ops: [
      new ExtractApply({
        manager: 'apply-one',
        object: `
						map:
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'apply-two',
        object: `
						map:
						 a: c
						 b: d
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'apply-two',
        object: `
						map:
						 b: d
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				map:
				  b: d
			`,
    apiVersion: 'v1',
    managed: managedFields({
      'apply-one': new VersionedSet(_NS(_P('map')), 'v1', false),
      'apply-two': new VersionedSet(_NS(_P('map', 'b')), 'v1', false),
    }),
  },
  extract_apply_empty_structure_add_later_map: {
    ops: [
      new ExtractApply({
        manager: 'apply-one',
        object: `
						map:
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'apply-two',
        object: `
						map:
						 a: c
						 b: d
					`,
        apiVersion: 'v1',
      }),
      new ExtractApply({
        manager: 'apply-one',
        object: `
						map:
						  e: f
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'apply-two',
        object: `
						map:
						 b: d
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				map:
				  b: d
				  e: f
			`,
    apiVersion: 'v1',
    managed: managedFields({
      'apply-one': new VersionedSet(_NS(_P('map', 'e')), 'v1', false),
      'apply-two': new VersionedSet(_NS(_P('map', 'b')), 'v1', false),
    }),
  },
  extract_apply_atomic_list: {
    ops: [
      new ExtractApply({
        manager: 'apply-one',
        object: `
						atomicList:
						- a
						- b
						- c
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				atomicList:
				- a
				- b
				- c
			`,
    apiVersion: 'v1',
    managed: managedFields({
      'apply-one': new VersionedSet(_NS(_P('atomicList')), 'v1', false),
    }),
  },
  extract_apply_atomic_map: {
    ops: [
      new ExtractApply({
        manager: 'apply-one',
        object: `
						atomicMap:
						 a: c
						 b: d
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				atomicMap:
				 a: c
				 b: d
			`,
    apiVersion: 'v1',
    managed: managedFields({
      'apply-one': new VersionedSet(_NS(_P('atomicMap')), 'v1', false),
    }),
  },
};

describe('TestExtractApply', () => runTable(testExtractApply, extractParser));
