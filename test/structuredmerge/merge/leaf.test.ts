// Ported from sigs.k8s.io/structured-merge-diff merge/leaf_test.go.
import { describe } from 'node:test';
import { VersionedSet } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { Conflict } from '../../../runtime/apimachinery/structuredmerge/merge/index.js';
import type { TestCase } from '../fixture/index.js';
import { leafFieldsParser } from './parsers.js';
import { Apply, ForceApply, Update, runTable, managedFields, _NS, _P } from '../fixture/index.js';

const testUpdateLeaf: Record<string, TestCase> = {
  apply_twice: {
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
  apply_twice_different_versions: {
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
        apiVersion: 'v2',
      }),
    ],
    object: `
				numeric: 2
				string: "string"
				bool: false
			`,
    apiVersion: 'v1',
    managed: managedFields({
      default: new VersionedSet(_NS(_P('numeric'), _P('string'), _P('bool')), 'v2', false),
    }),
  },
  apply_update_apply_no_conflict: {
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
  apply_update_apply_no_conflict_different_version: {
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
        apiVersion: 'v2',
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
      controller: new VersionedSet(_NS(_P('bool')), 'v2', false),
    }),
  },
  apply_update_apply_with_conflict: {
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
  apply_update_apply_with_conflict_across_version: {
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
        apiVersion: 'v2',
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
      controller: new VersionedSet(_NS(_P('bool')), 'v2', false),
    }),
  },
  apply_twice_remove: {
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
  update_apply_omits: {
    ops: [
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						numeric: 2
					`,
      }),
      new Update({
        manager: 'controller',
        apiVersion: 'v1',
        object: `
						numeric: 1
					`,
      }),
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: ``,
      }),
    ],
    object: `
						numeric: 1
			`,
    apiVersion: 'v1',
    managed: managedFields({
      controller: new VersionedSet(_NS(_P('numeric')), 'v1', false),
    }),
  },
  apply_twice_remove_different_version: {
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
        apiVersion: 'v2',
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
      default: new VersionedSet(_NS(_P('string')), 'v2', false),
    }),
  },
  update_remove_empty_set: {
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
  apply_remove_empty_set: {
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
        object: '',
      }),
    ],
    object: `
			`,
    apiVersion: 'v1',
    managed: managedFields({}),
  },
};

describe('TestUpdateLeaf', () => runTable(testUpdateLeaf, leafFieldsParser));
