import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { emitProtobuf, protobufPackage } from '../../generator/emit/protobuf.js';
import type { ProtoField, ProtoMessage } from '../../generator/model/protobuf.js';
import type { ApiModel, GroupModel, VersionModel } from '../../generator/model/types.js';
import type { FieldDescriptor } from '../../runtime/apimachinery/serializer/protobuf/descriptor.js';

// The protobuf emitter on hand-built models: what each model field becomes in a descriptor, and
// which files are written.

const base: ProtoField = { name: 'f', number: 1, cardinality: 'single', type: { kind: 'scalar', scalar: 'string' }, pointer: false, omitEmpty: false, omitZero: false };

function version(name: string, protobuf: readonly ProtoMessage[]): VersionModel {
  return { name, dir: `apis/x/${name}`, storage: true, hub: true, deprecation: undefined, openapiPackage: `io.x.${name}`, kinds: [], protobuf };
}

function group(name: string, versions: readonly VersionModel[], origin: GroupModel['origin'] = 'source'): GroupModel {
  return { name, dir: 'apis/x', clientName: name === '' ? 'core' : name.split('.')[0]!, versions, origin };
}

describe('protobuf descriptors from the model', () => {
  const rows: readonly { name: string; field: Partial<ProtoField>; descriptor: FieldDescriptor }[] = [
    { name: 'a plain string', field: {}, descriptor: { name: 'f', number: 1, type: 'string' } },
    {
      name: 'an optional int64 pointer',
      field: { type: { kind: 'scalar', scalar: 'int64' }, pointer: true, omitEmpty: true },
      descriptor: { name: 'f', number: 1, type: 'int64', pointer: true, omitEmpty: true },
    },
    {
      name: 'a repeated message',
      field: { number: 13, cardinality: 'repeated', type: { kind: 'message', name: 'io.x.v1.Part' } },
      descriptor: { name: 'f', number: 13, type: 'message', message: 'io.x.v1.Part', cardinality: 'repeated' },
    },
    { name: 'a map of strings', field: { cardinality: 'map', omitEmpty: true }, descriptor: { name: 'f', number: 1, type: 'string', cardinality: 'map', omitEmpty: true } },
    {
      name: 'an omitzero Time',
      field: { type: { kind: 'wellKnown', name: 'Time' }, omitEmpty: true, omitZero: true },
      descriptor: { name: 'f', number: 1, type: 'Time', omitEmpty: true, omitZero: true },
    },
    { name: 'an IntOrString', field: { type: { kind: 'wellKnown', name: 'IntOrString' } }, descriptor: { name: 'f', number: 1, type: 'IntOrString' } },
  ];
  for (const row of rows) {
    test(row.name, () => {
      const v = version('v1', [{ name: 'io.x.v1.T', kind: undefined, fields: [{ ...base, ...row.field }] }]);
      assert.deepEqual(protobufPackage(group('x.io', [v]), v), { apiVersion: 'x.io/v1', messages: [{ name: 'io.x.v1.T', fields: [row.descriptor] }] });
    });
  }

  test("a kind is named; the core group's apiVersion has no group", () => {
    const v = version('v1', [{ name: 'io.x.v1.Thing', kind: 'Thing', fields: [base] }]);
    assert.deepEqual(protobufPackage(group('', [v]), v), { apiVersion: 'v1', messages: [{ name: 'io.x.v1.Thing', kind: 'Thing', fields: [{ name: 'f', number: 1, type: 'string' }] }] });
  });
});

describe('protobuf files', () => {
  test('one module per version with messages, and an index of them; none for CRD groups', () => {
    const message: ProtoMessage = { name: 'io.x.v1.T', kind: 'T', fields: [base] };
    const model: ApiModel = {
      definitions: {},
      groups: [group('x.io', [version('v1', [message]), version('v1beta1', [])]), group('crd.io', [version('v1', [message])], 'crd')],
    };
    const files = emitProtobuf(model);
    assert.deepEqual(
      files.map((f) => f.path),
      ['generated/protobuf/x/v1.ts', 'generated/protobuf/index.ts'],
    );
  });

  test('the index is written even when no type is numbered (the runtime imports it)', () => {
    const files = emitProtobuf({ definitions: {}, groups: [group('x.io', [version('v1', [])])] });
    assert.deepEqual(
      files.map((f) => f.path),
      ['generated/protobuf/index.ts'],
    );
  });
});
