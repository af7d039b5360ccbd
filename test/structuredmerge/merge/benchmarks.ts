// The cases of SMD's merge benchmarks (deduced_test.go, leaf_test.go, multiple_appliers_test.go):
// benchmarks.test.ts checks that each passes, as the Go benchmarks do before timing them.
import { VersionedSet } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { Conflict } from '../../../runtime/apimachinery/structuredmerge/merge/index.js';
import type { TestCase } from '../fixture/index.js';
import { Apply, ForceApply, Update, managedFields, _NS, _P, _KBF, _V } from '../fixture/index.js';

export const benchmarkDeducedSimple: TestCase = {
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
};

export const benchmarkDeducedNested: TestCase = {
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
};

export const benchmarkDeducedNestedAcrossVersion: TestCase = {
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
};

export const benchmarkLeafConflictAcrossVersion: TestCase = {
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
};

export const benchmarkMultipleApplierRecursiveRealConversion: TestCase = {
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
    new Update({
      manager: 'controller',
      object: `
					mapOfMapsRecursive:
					  aaa:
					    bbb:
					      ccc:
					        ddd:
					  ccc:
					    ddd:
					      eee:
					        fff:
					`,
      apiVersion: 'v3',
    }),
    new Apply({
      manager: 'apply-one',
      object: `
					mapOfMapsRecursive:
				`,
      apiVersion: 'v4',
    }),
  ],
  object: `
			mapOfMapsRecursive:
			  aaaa:
			  cccc:
			    dddd:
			      eeee:
			        ffff:
		`,
  apiVersion: 'v4',
  managed: managedFields({
    'apply-one': new VersionedSet(_NS(_P('mapOfMapsRecursive')), 'v4', false),
    'apply-two': new VersionedSet(_NS(_P('mapOfMapsRecursive', 'aa'), _P('mapOfMapsRecursive', 'cc'), _P('mapOfMapsRecursive', 'cc', 'dd')), 'v2', false),
    controller: new VersionedSet(_NS(_P('mapOfMapsRecursive', 'ccc', 'ddd', 'eee'), _P('mapOfMapsRecursive', 'ccc', 'ddd', 'eee', 'fff')), 'v3', false),
  }),
};
