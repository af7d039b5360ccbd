// Ported from sigs.k8s.io/structured-merge-diff merge/deduced_test.go.
import { describe } from 'node:test';
import { VersionedSet } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { Conflict } from '../../../runtime/apimachinery/structuredmerge/merge/index.js';
import type { TestCase } from '../fixture/index.js';
import { Apply, ForceApply, Update, deducedParser, runTable, managedFields, _NS, _P } from '../fixture/index.js';

const testDeduced: Record<string, TestCase> = {
  leaf_apply_twice: {
    ops: [
      new Apply({
        manager: 'default',
        object: `
						numeric: 1
						string: "string"
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'default',
        object: `
						numeric: 2
						string: "string"
						bool: false
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				numeric: 2
				string: "string"
				bool: false
			`,
    apiVersion: 'v1',
    managed: managedFields({
      default: new VersionedSet(_NS(_P('numeric'), _P('string'), _P('bool')), 'v1', false),
    }),
  },
  leaf_apply_update_apply_no_conflict: {
    ops: [
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						numeric: 1
						string: "string"
					`,
      }),
      new Update({
        manager: 'controller',
        apiVersion: 'v1',
        object: `
						numeric: 1
						string: "string"
						bool: true
					`,
      }),
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						numeric: 2
						string: "string"
					`,
      }),
    ],
    object: `
				numeric: 2
				string: "string"
				bool: true
			`,
    apiVersion: 'v1',
    managed: managedFields({
      default: new VersionedSet(_NS(_P('numeric'), _P('string')), 'v1', false),
      controller: new VersionedSet(_NS(_P('bool')), 'v1', false),
    }),
  },
  leaf_apply_update_apply_with_conflict: {
    ops: [
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						numeric: 1
						string: "string"
					`,
      }),
      new Update({
        manager: 'controller',
        apiVersion: 'v1',
        object: `
						numeric: 1
						string: "controller string"
						bool: true
					`,
      }),
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						numeric: 2
						string: "user string"
					`,
        conflicts: [new Conflict('controller', _P('string'))],
      }),
      new ForceApply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						numeric: 2
						string: "user string"
					`,
      }),
    ],
    object: `
				numeric: 2
				string: "user string"
				bool: true
			`,
    apiVersion: 'v1',
    managed: managedFields({
      default: new VersionedSet(_NS(_P('numeric'), _P('string')), 'v1', false),
      controller: new VersionedSet(_NS(_P('bool')), 'v1', false),
    }),
  },
  leaf_apply_twice_remove: {
    ops: [
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						numeric: 1
						string: "string"
						bool: false
					`,
      }),
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						string: "new string"
					`,
      }),
    ],
    object: `
				string: "new string"
			`,
    apiVersion: 'v1',
    managed: managedFields({
      default: new VersionedSet(_NS(_P('string')), 'v1', false),
    }),
  },
  leaf_update_remove_empty_set: {
    ops: [
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						string: "string"
					`,
      }),
      new Update({
        manager: 'controller',
        apiVersion: 'v1',
        object: `
						string: "new string"
					`,
      }),
    ],
    object: `
				string: "new string"
			`,
    apiVersion: 'v1',
    managed: managedFields({
      controller: new VersionedSet(_NS(_P('string')), 'v1', false),
    }),
  },
  apply_twice_list_is_atomic: {
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
      default: new VersionedSet(_NS(_P('list')), 'v1', false),
    }),
  },
  apply_update_apply_list: {
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
      new ForceApply({
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
			`,
    apiVersion: 'v1',
    managed: managedFields({
      default: new VersionedSet(_NS(_P('list')), 'v1', false),
    }),
  },
  leaf_apply_remove_empty_set: {
    ops: [
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						string: "string"
					`,
      }),
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: ``,
      }),
    ],
    object: ``,
    apiVersion: 'v1',
    managed: managedFields({}),
  },
  apply_update_apply_nested: {
    ops: [
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						a: 1
						b:
						  c:
						    d: 2
						    e:
						    - 1
						    - 2
						    - 3
						    f:
						    - name: n
						      value: 1
					`,
      }),
      new Update({
        manager: 'controller',
        apiVersion: 'v1',
        object: `
						a: 1
						b:
						  c:
						    d: 3
						    e:
						    - 1
						    - 2
						    - 3
						    - 4
						    f:
						    - name: n
						      value: 2
						g: 5
					`,
      }),
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						a: 2
						b:
						  c:
						    d: 2
						    e:
						    - 3
						    - 2
						    - 1
						    f:
						    - name: n
						      value: 1
					`,
        conflicts: [new Conflict('controller', _P('b', 'c', 'd')), new Conflict('controller', _P('b', 'c', 'e')), new Conflict('controller', _P('b', 'c', 'f'))],
      }),
      new ForceApply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						a: 2
						b:
						  c:
						    d: 2
						    e:
						    - 3
						    - 2
						    - 1
						    f:
						    - name: n
						      value: 1
					`,
      }),
    ],
    object: `
				a: 2
				b:
				  c:
				    d: 2
				    e:
				    - 3
				    - 2
				    - 1
				    f:
				    - name: n
				      value: 1
				g: 5
			`,
    apiVersion: 'v1',
  },
  apply_update_apply_nested_different_version: {
    ops: [
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						a: 1
						b:
						  c:
						    d: 2
						    e:
						    - 1
						    - 2
						    - 3
						    f:
						    - name: n
						      value: 1
					`,
      }),
      new Update({
        manager: 'controller',
        apiVersion: 'v2',
        object: `
						a: 1
						b:
						  c:
						    d: 3
						    e:
						    - 1
						    - 2
						    - 3
						    - 4
						    f:
						    - name: n
						      value: 2
						g: 5
					`,
      }),
      new Apply({
        manager: 'default',
        apiVersion: 'v3',
        object: `
						a: 2
						b:
						  c:
						    d: 2
						    e:
						    - 3
						    - 2
						    - 1
						    f:
						    - name: n
						      value: 1
					`,
        conflicts: [new Conflict('controller', _P('b', 'c', 'd')), new Conflict('controller', _P('b', 'c', 'e')), new Conflict('controller', _P('b', 'c', 'f'))],
      }),
      new ForceApply({
        manager: 'default',
        apiVersion: 'v3',
        object: `
						a: 2
						b:
						  c:
						    d: 2
						    e:
						    - 3
						    - 2
						    - 1
						    f:
						    - name: n
						      value: 1
					`,
      }),
    ],
    object: `
				a: 2
				b:
				  c:
				    d: 2
				    e:
				    - 3
				    - 2
				    - 1
				    f:
				    - name: n
				      value: 1
				g: 5
			`,
    apiVersion: 'v1',
  },
};

describe('TestDeduced', () => runTable(testDeduced, deducedParser));
