// Ported from sigs.k8s.io/structured-merge-diff merge/multiple_appliers_test.go: the tests over every combination of versions, with the renaming converter.
import { describe } from 'node:test';
import { VersionedSet } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { Parser as SchemaParser } from '../../../runtime/apimachinery/structuredmerge/typed/index.js';
import type { TestCase } from '../fixture/index.js';
import { Apply, Update, runTable, managedFields, _NS, _P } from '../fixture/index.js';
const structMultiversionParser = SchemaParser.fromYAML(`types:
- name: v1
  map:
    fields:
      - name: struct
        type:
          namedType: struct
      - name: version
        type:
          scalar: string
- name: struct
  map:
    fields:
      - name: name
        type:
          scalar: string
      - name: scalarField_v1
        type:
          scalar: string
      - name: complexField_v1
        type:
          namedType: complex
- name: complex
  map:
    fields:
      - name: name
        type:
          scalar: string
- name: v2
  map:
    fields:
      - name: struct
        type:
          namedType: struct_v2
      - name: version
        type:
          scalar: string
- name: struct_v2
  map:
    fields:
      - name: name
        type:
          scalar: string
      - name: scalarField_v2
        type:
          scalar: string
      - name: complexField_v2
        type:
          namedType: complex_v2
- name: complex_v2
  map:
    fields:
      - name: name
        type:
          scalar: string
- name: v3
  map:
    fields:
      - name: struct
        type:
          namedType: struct_v3
      - name: version
        type:
          scalar: string
- name: struct_v3
  map:
    fields:
      - name: name
        type:
          scalar: string
      - name: scalarField_v3
        type:
          scalar: string
      - name: complexField_v3
        type:
          namedType: complex_v3
- name: complex_v3
  map:
    fields:
      - name: name
        type:
          scalar: string
`);
import type { APIVersion } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { RenamingConverter } from './converters.js';

const versions: APIVersion[] = ['v1', 'v2', 'v3'];

/** The cases at versions v1, v2 and v3 (fields named _v1 … exist at their version only). */
function testMultipleAppliersFieldUnsettingCases(v1: APIVersion, v2: APIVersion, v3: APIVersion): Record<string, TestCase> {
  return {
    unset_scalar_sole_owner: {
      ops: [
        new Apply({
          manager: 'apply-one',
          apiVersion: v1,
          object: `
						struct:
						  name: a
						  scalarField_${v1}: a
					`,
        }),
        new Apply({
          manager: 'apply-one',
          apiVersion: v2,
          object: `
						struct:
						  name: a
					`,
        }),
      ],
      object: `
				struct:
				  name: a
			`,
      apiVersion: v3,
      managed: managedFields({
        'apply-one': new VersionedSet(_NS(_P('struct', 'name')), v2, false),
      }),
    },
    unset_scalar_shared_with_applier: {
      ops: [
        new Apply({
          manager: 'apply-one',
          apiVersion: v1,
          object: `
						struct:
						  name: a
						  scalarField_${v1}: a
					`,
        }),
        new Apply({
          manager: 'apply-two',
          apiVersion: v2,
          object: `
						struct:
						  scalarField_${v2}: a
					`,
        }),
        new Apply({
          manager: 'apply-one',
          apiVersion: v3,
          object: `
						struct:
						  name: a
					`,
        }),
      ],
      object: `
				struct:
				  name: a
				  scalarField_${v3}: a
			`,
      apiVersion: v3,
      managed: managedFields({
        'apply-one': new VersionedSet(_NS(_P('struct', 'name')), v3, true),
        'apply-two': new VersionedSet(_NS(_P('struct', `scalarField_${v2}`)), v2, false),
      }),
    },
    unset_scalar_shared_with_updater: {
      ops: [
        new Update({
          manager: 'updater',
          apiVersion: v1,
          object: `
						struct:
						  name: a
						  scalarField_${v1}: a
					`,
        }),
        new Apply({
          manager: 'applier',
          apiVersion: v2,
          object: `
						struct:
						  name: a
						  scalarField_${v2}: a
					`,
        }),
        new Apply({
          manager: 'applier',
          apiVersion: v3,
          object: `
						struct:
						  name: a
					`,
        }),
      ],
      object: `
				struct:
				  name: a
				  scalarField_${v3}: a
			`,
      apiVersion: v3,
      managed: managedFields({
        updater: new VersionedSet(_NS(_P('struct'), _P('struct', 'name'), _P('struct', `scalarField_${v1}`)), v1, false),
        applier: new VersionedSet(_NS(_P('struct', 'name')), v3, true),
      }),
    },
    updater_claims_field: {
      ops: [
        new Apply({
          manager: 'applier',
          apiVersion: v1,
          object: `
						struct:
						  name: a
						  scalarField_${v1}: a
					`,
        }),
        new Update({
          manager: 'updater',
          apiVersion: v2,
          object: `
						struct:
						  name: a
						  scalarField_${v2}: b
					`,
        }),
      ],
      object: `
				struct:
				  name: a
				  scalarField_${v3}: b
			`,
      apiVersion: v3,
      managed: managedFields({
        updater: new VersionedSet(_NS(_P('struct', `scalarField_${v2}`)), v2, false),
        applier: new VersionedSet(_NS(_P('struct', 'name')), v1, true),
      }),
    },
    unset_complex_sole_owner: {
      ops: [
        new Apply({
          manager: 'apply-one',
          apiVersion: v1,
          object: `
						struct:
						  name: a
						  complexField_${v1}:
						    name: b
					`,
        }),
        new Apply({
          manager: 'apply-one',
          apiVersion: v2,
          object: `
						struct:
						  name: a
					`,
        }),
      ],
      object: `
				struct:
				  name: a
			`,
      apiVersion: v3,
      managed: managedFields({
        'apply-one': new VersionedSet(_NS(_P('struct', 'name')), v2, false),
      }),
    },
    unset_complex_shared_with_applier: {
      ops: [
        new Apply({
          manager: 'apply-one',
          apiVersion: v1,
          object: `
						struct:
						  name: a
						  complexField_${v1}:
						    name: b
					`,
        }),
        new Apply({
          manager: 'apply-two',
          apiVersion: v2,
          object: `
						struct:
						  complexField_${v2}:
						    name: b
					`,
        }),
        new Apply({
          manager: 'apply-one',
          apiVersion: v3,
          object: `
						struct:
						  name: a
					`,
        }),
      ],
      object: `
				struct:
				  name: a
				  complexField_${v3}:
				    name: b
			`,
      apiVersion: v3,
      managed: managedFields({
        'apply-one': new VersionedSet(_NS(_P('struct', 'name')), v3, false),
        'apply-two': new VersionedSet(_NS(_P('struct', `complexField_${v2}`, 'name')), v2, false),
      }),
    },
  };
}

describe('TestMultipleAppliersFieldUnsetting', () => {
  for (const v1 of versions)
    for (const v2 of versions)
      for (const v3 of versions) {
        describe(`${v1}-${v2}-${v3}`, () => runTable(testMultipleAppliersFieldUnsettingCases(v1, v2, v3), structMultiversionParser, new RenamingConverter(structMultiversionParser)));
      }
});

/** The cases at versions v1, v2 and v3 (fields named _v1 … exist at their version only). */
function testMultipleAppliersFieldRenameConversionsCases(v1: APIVersion, v2: APIVersion, v3: APIVersion): Record<string, TestCase> {
  return {
    updater_claims_field: {
      ops: [
        new Apply({
          manager: 'applier',
          apiVersion: v1,
          object: `
						struct:
						  name: a
						  scalarField_${v1}: a
					`,
        }),
        new Update({
          manager: 'updater',
          apiVersion: v2,
          object: `
						struct:
						  name: a
						  scalarField_${v2}: b
					`,
        }),
      ],
      object: `
				struct:
				  name: a
				  scalarField_${v3}: b
			`,
      apiVersion: v3,
      managed: managedFields({
        updater: new VersionedSet(_NS(_P('struct', `scalarField_${v2}`)), v2, false),
        applier: new VersionedSet(_NS(_P('struct', 'name')), v1, true),
      }),
    },
  };
}

describe('TestMultipleAppliersFieldRenameConversions', () => {
  for (const v1 of versions)
    for (const v2 of versions)
      for (const v3 of versions) {
        describe(`${v1}-${v2}-${v3}`, () => runTable(testMultipleAppliersFieldRenameConversionsCases(v1, v2, v3), structMultiversionParser, new RenamingConverter(structMultiversionParser)));
      }
});

// repeatingConverter repeats a single letterkey v times, where v is the version.
