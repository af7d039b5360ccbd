// Ported from sigs.k8s.io/structured-merge-diff merge/multiple_appliers_test.go: the tests with converters that change the object.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { APIVersion, ManagedFields } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { managedFieldsEquals, managedFieldsString, VersionedSet } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import type { Converter } from '../../../runtime/apimachinery/structuredmerge/merge/index.js';
import { Updater } from '../../../runtime/apimachinery/structuredmerge/merge/index.js';
import type { TypedValue } from '../../../runtime/apimachinery/structuredmerge/typed/index.js';
import { Parser as SchemaParser } from '../../../runtime/apimachinery/structuredmerge/typed/index.js';
import type { TestCase } from '../fixture/index.js';
import { Apply, Update, runTable, testWithConverter, managedFields, _NS, _P } from '../fixture/index.js';
import { marshalYAML, missingVersionError, RepeatingConverter } from './converters.js';
import { nestedTypeParser } from './parsers.js';
const testMultipleAppliersRealConversion: Record<string, TestCase> = {
  multiple_appliers_recursive_map_real_conversion: {
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
  },
  appliers_remove_from_controller_real_conversion: {
    // Ensures that an applier can delete associative map items it created after a controller
    // modifies them.
    ops: [
      new Apply({
        manager: 'apply',
        object: `
						mapOfMapsRecursive:
						  aaa:
						    bbb:
					`,
        apiVersion: 'v3',
      }),
      new Update({
        manager: 'controller',
        object: `
						mapOfMapsRecursive:
						  a:
						    b:
						      c:
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'apply',
        object: `
						mapOfMapsRecursive:
						  aa:
						    bb:
						  cc:
						    dd:
					`,
        apiVersion: 'v2',
      }),
      new Apply({
        manager: 'apply',
        object: `
						mapOfMapsRecursive:
						  aaa:
						  ccc:
					`,
        apiVersion: 'v3',
      }),
    ],
    object: `
				mapOfMapsRecursive:
				  aaa:
				  ccc:
			`,
    apiVersion: 'v3',
    managed: managedFields({
      apply: new VersionedSet(_NS(_P('mapOfMapsRecursive', 'aaa'), _P('mapOfMapsRecursive', 'ccc')), 'v3', false),
    }),
  },
  applier_updater_shared_ownership_real_conversion: {
    // Ensures that when an updater creates maps that they are not deleted when
    // an applier shares ownership in them and then later removes them from its applied
    // configuration
    ops: [
      new Update({
        manager: 'updater',
        object: `
						mapOfMapsRecursive:
						  a:
						    b:
						      c:
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'apply',
        object: `
						mapOfMapsRecursive:
						  aa:
						    bb:
						  cc:
						    dd:
					`,
        apiVersion: 'v2',
      }),
      new Apply({
        manager: 'apply',
        object: `
						mapOfMapsRecursive:
						  aaa:
						  ccc:
					`,
        apiVersion: 'v3',
      }),
    ],
    object: `
				mapOfMapsRecursive:
				  aaa:
				    bbb:
				      ccc:
				  ccc:
			`,
    apiVersion: 'v3',
    managed: managedFields({
      updater: new VersionedSet(_NS(_P('mapOfMapsRecursive'), _P('mapOfMapsRecursive', 'a'), _P('mapOfMapsRecursive', 'a', 'b'), _P('mapOfMapsRecursive', 'a', 'b', 'c')), 'v1', false),
      apply: new VersionedSet(_NS(_P('mapOfMapsRecursive', 'aaa'), _P('mapOfMapsRecursive', 'ccc')), 'v3', false),
    }),
  },
};

describe('TestMultipleAppliersRealConversion', () => runTable(testMultipleAppliersRealConversion, nestedTypeParser, new RepeatingConverter(nestedTypeParser)));

const multiversionWithReliantFieldsParser = SchemaParser.fromYAML(`types:
- name: v1
  map:
    fields:
      - name: field_foo_rely_on_bar
        type:
          scalar: string
      - name: common_field
        type:
          scalar: string
- name: v2
  map:
    fields:
      - name: required_field_bar
        type:
          scalar: string
      - name: common_field
        type:
          scalar: string
`);

/**
 * v2 → v1 renames required_field_bar to field_foo_rely_on_bar and fails without it; v1 → v2
 * renames it back. For multiversionWithReliantFieldsParser only.
 */
const reliantFieldsConverter: Converter = {
  convert(v: TypedValue, version: APIVersion): TypedValue {
    if (v.typeRef.namedType === version) return v;
    return multiversionWithReliantFieldsParser.type(version).fromYAML(renameReliantFields(v, version));
  },
  isMissingVersionError: (err) => err === missingVersionError,
};

/** The object's YAML with the reliant field renamed for `version`; throws if v1's source lacks it. */
function renameReliantFields(v: TypedValue, version: APIVersion): string {
  const inStr = marshalYAML(v.value);
  switch (version) {
    case 'v1':
      if (!inStr.includes('required_field_bar')) throw new Error('missing requried field bar');
      return inStr.replaceAll('required_field_bar', 'field_foo_rely_on_bar');
    case 'v2':
      return inStr.replaceAll('field_foo_rely_on_bar', 'required_field_bar');
    default:
      throw missingVersionError;
  }
}

const testMultipleAppliersReliantFieldsConversions: Record<string, TestCase> = {
  multiple_versions_with_reliant_fields: {
    ops: [
      new Apply({
        manager: 'v2_applier',
        apiVersion: 'v2',
        object: `
						required_field_bar: a
					`,
      }),
      new Apply({
        manager: 'v1_applier',
        apiVersion: 'v1',
        object: `
						common_field: b
					`,
      }),
      new Apply({
        manager: 'v2_applier',
        apiVersion: 'v2',
        object: `
						required_field_bar: b
					`,
      }),
    ],
    object: `
				required_field_bar: b
				common_field: b
			`,
    apiVersion: 'v2',
    managed: managedFields({
      v2_applier: new VersionedSet(_NS(_P('required_field_bar')), 'v2', true),
      v1_applier: new VersionedSet(_NS(_P('common_field')), 'v1', true),
    }),
  },
};

describe('TestMultipleAppliersReliantFieldsConversions', () => {
  for (const [name, tc] of Object.entries(testMultipleAppliersReliantFieldsConversions)) {
    test(name, async () => {
      // SMD runs this case many times: in Go the managers' map order changes from run to run.
      const runTimes = name === 'multiple_versions_with_reliant_fields' ? 100 : 1;
      for (let i = 0; i < runTimes; i++) await testWithConverter(tc, multiversionWithReliantFieldsParser, reliantFieldsConverter);
    });
  }
});

const versionDoesntMatchTypeName = SchemaParser.fromYAML(`types:
- name: TypeV1
  map:
    fields:
      - name: field_foo_rely_on_bar
        type:
          scalar: string
      - name: common_field
        type:
          scalar: string
- name: TypeV2
  map:
    fields:
      - name: required_field_bar
        type:
          scalar: string
      - name: common_field
        type:
          scalar: string
`);

/** As reliantFieldsConverter, with types named TypeV1 and TypeV2 instead of their versions. */
const versionDoesntMatchTypenameConverter: Converter = {
  convert(v: TypedValue, version: APIVersion): TypedValue {
    const inType = v.typeRef.namedType;
    if (inType !== 'TypeV1' && inType !== 'TypeV2') {
      throw new Error(`Invalid typename: ${JSON.stringify(version)}, should be one of ["TypeV1", "TypeV2"]`);
    }
    if ((inType === 'TypeV1' ? 'v1' : 'v2') === version) return v;
    const outStr = renameReliantFields(v, version);
    return versionDoesntMatchTypeName.type(version === 'v1' ? 'TypeV1' : 'TypeV2').fromYAML(outStr);
  },
  isMissingVersionError: (err) => err === missingVersionError,
};

// TestMultipleAppliersReliantFieldsConversions without the fixture, which assumes that a type
// is named after its version: the Updater must not assume it.
test('TestVersionDoesntMatchTypename', async () => {
  const converter = versionDoesntMatchTypenameConverter;
  const updater = new Updater({ converter });
  const parse = (type: string, y: string): TypedValue => versionDoesntMatchTypeName.type(type).fromYAML(y);
  for (let i = 0; i < 10; i++) {
    let live = parse('TypeV2', `{}`);
    let managers: ManagedFields = new Map();
    let applied = await updater.apply(live, parse('TypeV2', `{"required_field_bar": "a"}`), 'v2', managers, 'v2_applier', false);
    live = applied.object ?? live;
    managers = applied.managers;
    live = await converter.convert(live, 'v1');
    applied = await updater.apply(live, parse('TypeV1', `{"common_field": "b"}`), 'v1', managers, 'v1_applier', false);
    live = applied.object ?? live;
    managers = applied.managers;
    live = await converter.convert(live, 'v2');
    applied = await updater.apply(live, parse('TypeV2', `{"required_field_bar": "b"}`), 'v2', managers, 'v2_applier', false);
    live = applied.object ?? live;
    managers = applied.managers;

    const comparison = live.compare(parse('TypeV2', `{"required_field_bar": "b", "common_field": "b"}`));
    assert.ok(comparison.isSame(), `Live is different from expected:\n${comparison.toString()}`);
    const expectedManagers = managedFields({
      v2_applier: new VersionedSet(_NS(_P('required_field_bar')), 'v2', true),
      v1_applier: new VersionedSet(_NS(_P('common_field')), 'v1', true),
    });
    assert.ok(managedFieldsEquals(expectedManagers, managers), `ManagedFields not as expected:\n${managedFieldsString(managers)}`);
  }
});
