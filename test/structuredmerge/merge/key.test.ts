// Ported from sigs.k8s.io/structured-merge-diff merge/key_test.go.
import { describe } from 'node:test';
import { VersionedSet } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import type { TestCase } from '../fixture/index.js';
import { associativeListParser } from './parsers.js';
import { Apply, runTable, managedFields, _NS, _P, _KBF } from '../fixture/index.js';

const testUpdateAssociativeLists: Record<string, TestCase> = {
  removing_obsolete_applied_structs: {
    ops: [
      new Apply({
        manager: 'default',
        object: `
						list:
						- name: a
						  value: 1
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'default',
        object: `
						list:
						- name: b
						  value: 2
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				list:
				- name: b
				  value: 2
			`,
    apiVersion: 'v1',
    managed: managedFields({
      default: new VersionedSet(_NS(_P('list', _KBF('name', 'b')), _P('list', _KBF('name', 'b'), 'name'), _P('list', _KBF('name', 'b'), 'value')), 'v1', false),
    }),
  },
};

describe('TestUpdateAssociativeLists', () => runTable(testUpdateAssociativeLists, associativeListParser));
