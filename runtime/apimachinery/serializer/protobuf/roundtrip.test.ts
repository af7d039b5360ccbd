import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import protobuf from 'protobufjs/minimal.js';
import { authenticationV1Protobuf } from '../../../../generated/protobuf/authentication/v1.js';
import { authorizationV1Protobuf } from '../../../../generated/protobuf/authorization/v1.js';
import { autoscalingV1Protobuf } from '../../../../generated/protobuf/autoscaling/v1.js';
import { coreV1Protobuf } from '../../../../generated/protobuf/core/v1.js';
import { metaV1Protobuf } from '../../../../generated/protobuf/meta/v1.js';
import { rbacV1Protobuf } from '../../../../generated/protobuf/rbac/v1.js';
import { coordinationV1Protobuf } from '../../../../generated/protobuf/coordination/v1.js';
import { eventsV1Protobuf } from '../../../../generated/protobuf/events/v1.js';
import { decodeProtobufObject, encodeProtobufObject, type FieldDescriptor, type MessageDescriptor, type ProtobufPackage, ProtobufScheme } from './index.js';

// Property test: random Go values of every kind with descriptors, written with protobufjs'
// Writer as gogo marshals them (every non-pointer field, zero or not; pointers when set), must
// decode to the JSON Go's encoding/json writes for the same value, computed here from Go's rules
// independently of the decoder. The encoder is checked against the same JSON: what it writes for
// that JSON must decode to it again.

/** A test package for what the generated ones do not use: MicroTime, Quantity, RawExtension, bytes, maps of messages… */
const testPackage: ProtobufPackage = {
  apiVersion: 'test.example.com/v1',
  messages: [
    {
      name: 'test.Gadget',
      kind: 'Gadget',
      fields: [
        { name: 'micro', number: 1, type: 'MicroTime', pointer: true, omitEmpty: true },
        { name: 'since', number: 2, type: 'MicroTime', omitEmpty: true, omitZero: true },
        { name: 'size', number: 3, type: 'Quantity', omitEmpty: true },
        { name: 'limit', number: 4, type: 'Quantity', pointer: true, omitEmpty: true },
        { name: 'raw', number: 5, type: 'RawExtension' },
        { name: 'fields', number: 6, type: 'FieldsV1', pointer: true, omitEmpty: true },
        { name: 'data', number: 7, type: 'bytes', omitEmpty: true },
        { name: 'blob', number: 8, type: 'bytes' },
        { name: 'counts', number: 9, type: 'int64', cardinality: 'repeated' },
        { name: 'flags', number: 10, type: 'bool', cardinality: 'repeated', omitEmpty: true },
        { name: 'parts', number: 11, type: 'message', message: 'test.Part', cardinality: 'map', omitEmpty: true },
        { name: 'times', number: 12, type: 'Time', cardinality: 'map' },
        { name: 'ports', number: 13, type: 'IntOrString', cardinality: 'repeated', omitEmpty: true },
        { name: 'part', number: 14, type: 'message', message: 'test.Part', pointer: true, omitEmpty: true },
        { name: 'count', number: 15, type: 'int32', pointer: true },
      ],
    },
    {
      name: 'test.Part',
      fields: [
        { name: 'n', number: 1, type: 'int32' },
        { name: 'label', number: 2, type: 'string', omitEmpty: true },
      ],
    },
  ],
};

const packages: readonly ProtobufPackage[] = [
  coreV1Protobuf,
  autoscalingV1Protobuf,
  metaV1Protobuf,
  authenticationV1Protobuf,
  authorizationV1Protobuf,
  rbacV1Protobuf,
  coordinationV1Protobuf,
  eventsV1Protobuf,
  testPackage,
];
const scheme = new ProtobufScheme(packages);
const messages = new Map(packages.flatMap((p) => p.messages.map((m) => [m.name, m] as const)));

type Rng = () => number;
const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;

/** Values as Go holds them: `undefined` is a nil pointer, slice or map. */
type Time = { zero: true } | { zero: false; seconds: number; nanos: number };
type IntOrString = { type: 0; intVal: number } | { type: 1; strVal: string };
interface Struct {
  readonly message: MessageDescriptor;
  readonly values: Map<string, unknown>;
}

function randomStruct(message: MessageDescriptor, rng: Rng, depth: number): Struct {
  const values = new Map<string, unknown>();
  for (const f of message.fields) {
    if (f.cardinality === 'repeated') {
      values.set(f.name, rng() < 0.3 ? undefined : Array.from({ length: Math.floor(rng() * 3) }, () => randomElement(f, rng, depth)));
    } else if (f.cardinality === 'map') {
      values.set(f.name, rng() < 0.3 ? undefined : new Map(Array.from({ length: Math.floor(rng() * 3) }, () => [pick(rng, ['', 'a', 'b', 'app.kubernetes.io/name']), randomElement(f, rng, depth)])));
    } else if (f.pointer === true && rng() < 0.5) {
      values.set(f.name, undefined);
    } else {
      values.set(f.name, randomElement(f, rng, depth));
    }
  }
  return { message, values };
}

function randomElement(f: FieldDescriptor, rng: Rng, depth: number): unknown {
  switch (f.type) {
    case 'string':
      return pick(rng, ['', 'a', 'ü ✓ x', 'ClusterIP']);
    case 'bool':
      return rng() < 0.5;
    case 'int32':
      return pick(rng, [0, 1, -1, 8080, 2147483647, -2147483648]);
    case 'int64':
      return pick(rng, [0, 1, -1, 30, 2 ** 40, -(2 ** 40)]);
    case 'bytes':
      return pick(rng, [undefined, new Uint8Array(0), new Uint8Array([1, 2, 254])]);
    case 'Time':
    case 'MicroTime':
      return rng() < 0.3 ? { zero: true } : { zero: false, seconds: Math.floor(rng() * 4_102_444_800), nanos: f.type === 'MicroTime' ? Math.floor(rng() * 1e9) : 0 };
    case 'IntOrString':
      return rng() < 0.5 ? { type: 0, intVal: pick(rng, [0, 80, 65535]) } : { type: 1, strVal: pick(rng, ['', 'http', 'metrics']) };
    case 'Quantity':
      return pick(rng, [undefined, '0', '500m', '2Gi', '1e3']);
    case 'RawExtension':
    case 'FieldsV1':
      return pick(rng, [undefined, { a: [1, 'x'] }, { 'f:metadata': { 'f:labels': {} } }]);
    case 'message':
      return randomStruct(messages.get(f.message!)!, rng, depth + 1);
  }
}

/** Writes a struct's fields as gogo marshals them; `sparse` leaves out zero scalars, as proto3 writers do (the same Go value). */
function writeStruct(w: protobuf.Writer, s: Struct, rng: Rng): void {
  for (const f of s.message.fields) {
    const v = s.values.get(f.name);
    if (f.cardinality === 'repeated') {
      const items = (v ?? []) as unknown[];
      if (items.length > 0 && (f.type === 'bool' || f.type === 'int32' || f.type === 'int64') && rng() < 0.5) {
        w.uint32((f.number << 3) | 2).fork();
        for (const item of items) writeVarint(w, f, item);
        w.ldelim();
      } else {
        for (const item of items) writeElement(w, f, item, rng);
      }
    } else if (f.cardinality === 'map') {
      for (const [key, value] of (v ?? new Map()) as Map<string, unknown>) {
        w.uint32((f.number << 3) | 2).fork();
        w.uint32((1 << 3) | 2).string(key);
        writeElement(w, { ...f, number: 2 }, value, rng);
        w.ldelim();
      }
    } else if (!(f.pointer === true && v === undefined) && !(isZeroScalar(f, v) && rng() < 0.3)) {
      writeElement(w, f, v, rng);
    }
  }
}

function isZeroScalar(f: FieldDescriptor, v: unknown): boolean {
  return f.pointer !== true && (v === '' || v === 0 || v === false);
}

function writeVarint(w: protobuf.Writer, f: FieldDescriptor, v: unknown): void {
  if (f.type === 'bool') w.bool(v as boolean);
  else if (f.type === 'int32') w.int32(v as number);
  else w.int64(v as number);
}

function writeElement(w: protobuf.Writer, f: FieldDescriptor, v: unknown, rng: Rng): void {
  if (f.type === 'bool' || f.type === 'int32' || f.type === 'int64') {
    w.uint32(f.number << 3);
    writeVarint(w, f, v);
    return;
  }
  if (f.type === 'bytes' && v === undefined) return; // gogo writes a nil []byte as nothing
  w.uint32((f.number << 3) | 2);
  switch (f.type) {
    case 'string':
      w.string(v as string);
      return;
    case 'bytes':
      w.bytes(v as Uint8Array);
      return;
    case 'message':
      w.fork();
      writeStruct(w, v as Struct, rng);
      w.ldelim();
      return;
    default:
      break;
  }
  w.fork();
  switch (f.type) {
    case 'Time':
    case 'MicroTime': {
      const t = v as Time;
      if (!t.zero)
        w.uint32(1 << 3)
          .int64(t.seconds)
          .uint32(2 << 3)
          .int32(t.nanos);
      break;
    }
    case 'IntOrString': {
      const i = v as IntOrString;
      w.uint32(1 << 3)
        .int64(i.type)
        .uint32(2 << 3)
        .int32(i.type === 0 ? i.intVal : 0)
        .uint32((3 << 3) | 2)
        .string(i.type === 1 ? i.strVal : '');
      break;
    }
    case 'Quantity':
      w.uint32((1 << 3) | 2).string((v as string | undefined) ?? '0');
      break;
    case 'RawExtension':
    case 'FieldsV1':
      if (v !== undefined) w.uint32((1 << 3) | 2).bytes(Buffer.from(JSON.stringify(v)));
      break;
  }
  w.ldelim();
}

const OMIT = Symbol('omit');

/**
 * encoding/json of the struct with each field's json tag (omitempty, omitzero). `reread`: of the
 * struct Go reads back from that JSON, where a pointer written as null (a zero *Time) is nil.
 */
function goJSON(s: Struct, reread = false): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of s.message.fields) {
    const v = fieldJSON(f, s.values.get(f.name), reread);
    if (v !== OMIT) out[f.name] = v;
  }
  return out;
}

function fieldJSON(f: FieldDescriptor, v: unknown, reread: boolean): unknown {
  if (f.cardinality === 'repeated') {
    const items = (v ?? []) as unknown[];
    return items.length === 0 ? (f.omitEmpty === true ? OMIT : null) : items.map((i) => elementJSON(f, i, reread));
  }
  if (f.cardinality === 'map') {
    const entries = (v ?? new Map()) as Map<string, unknown>;
    return entries.size === 0 ? (f.omitEmpty === true ? OMIT : null) : Object.fromEntries([...entries].map(([k, x]) => [k, elementJSON(f, x, reread)]));
  }
  if (f.pointer === true) {
    const json = v === undefined ? OMIT : elementJSON(f, v, reread);
    return reread && json === null ? OMIT : json;
  }
  const json = elementJSON(f, v, reread);
  // A named list in a field is Go's nil slice when empty (as a map value or list element: []).
  if (f.type === 'message' && messages.get(f.message!)!.namedList === true && (json as unknown[]).length === 0) return f.omitEmpty === true ? OMIT : null;
  if (f.omitZero === true && json === null) return OMIT;
  const zero = json === '' || json === 0 || json === false || (f.type === 'bytes' && json === null);
  return f.omitEmpty === true && zero && ['string', 'bool', 'int32', 'int64', 'bytes'].includes(f.type) ? OMIT : json;
}

function elementJSON(f: FieldDescriptor, v: unknown, reread: boolean): unknown {
  switch (f.type) {
    case 'string':
    case 'bool':
    case 'int32':
    case 'int64':
      return v;
    case 'bytes':
      return v === undefined ? null : Buffer.from(v as Uint8Array).toString('base64');
    case 'Time':
    case 'MicroTime': {
      const t = v as Time;
      if (t.zero) return null;
      const iso = new Date(t.seconds * 1000).toISOString().slice(0, 19);
      return f.type === 'Time' ? `${iso}Z` : `${iso}.${String(Math.floor(t.nanos / 1000)).padStart(6, '0')}Z`;
    }
    case 'IntOrString': {
      const i = v as IntOrString;
      return i.type === 0 ? i.intVal : i.strVal;
    }
    case 'Quantity':
      return (v as string | undefined) ?? '0';
    case 'RawExtension':
    case 'FieldsV1':
      return v ?? null;
    case 'message': {
      const s = v as Struct;
      if (s.message.namedList !== true) return goJSON(s, reread);
      return ((s.values.get('items') ?? []) as unknown[]).map((i) => elementJSON(s.message.fields[0]!, i, reread));
    }
  }
}

function mulberry32(seed: number): Rng {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('protobuf round trip: random Go values of every kind decode to their Go JSON', () => {
  const kinds = packages.flatMap((p) => p.messages.filter((m) => m.kind !== undefined).map((m) => ({ apiVersion: p.apiVersion, message: m })));

  test('the generated descriptors cover the served kinds, Scale, DeleteOptions and Status', () => {
    assert.deepEqual(kinds.map((k) => `${k.apiVersion} ${k.message.kind}`).sort(), [
      'authentication.k8s.io/v1 SelfSubjectReview',
      'authentication.k8s.io/v1 TokenRequest',
      'authentication.k8s.io/v1 TokenReview',
      'authorization.k8s.io/v1 LocalSubjectAccessReview',
      'authorization.k8s.io/v1 SelfSubjectAccessReview',
      'authorization.k8s.io/v1 SelfSubjectRulesReview',
      'authorization.k8s.io/v1 SubjectAccessReview',
      'autoscaling/v1 Scale',
      'coordination.k8s.io/v1 Lease',
      'events.k8s.io/v1 Event',
      'meta.k8s.io/v1 DeleteOptions',
      'meta.k8s.io/v1 Status',
      'rbac.authorization.k8s.io/v1 ClusterRole',
      'rbac.authorization.k8s.io/v1 ClusterRoleBinding',
      'rbac.authorization.k8s.io/v1 Role',
      'rbac.authorization.k8s.io/v1 RoleBinding',
      'test.example.com/v1 Gadget',
      'v1 ConfigMap',
      'v1 Endpoints',
      'v1 Event',
      'v1 Namespace',
      'v1 Secret',
      'v1 Service',
      'v1 ServiceAccount',
    ]);
  });

  for (const { apiVersion, message } of kinds) {
    test(`${apiVersion} ${message.kind}`, () => {
      const rng = mulberry32(message.name.length * 7919);
      for (let i = 0; i < 200; i++) {
        const value = randomStruct(message, rng, 0);
        const w = protobuf.Writer.create();
        w.uint32((1 << 3) | 2)
          .fork()
          .uint32((1 << 3) | 2)
          .string(apiVersion)
          .uint32((2 << 3) | 2)
          .string(message.kind!)
          .ldelim();
        w.uint32((2 << 3) | 2).fork();
        writeStruct(w, value, rng);
        w.ldelim();
        const body = Buffer.concat([Buffer.from([0x6b, 0x38, 0x73, 0x00]), w.finish()]);
        const into = { apiVersion, kind: message.kind! };
        const got = decodeProtobufObject(body, { into, kind: into.kind, scheme });
        const json = { kind: message.kind!, apiVersion, ...goJSON(value) };
        assert.deepEqual(got, json, `case ${i}: ${body.toString('hex')}`);
        const reread = { kind: message.kind!, apiVersion, ...goJSON(value, true) };
        assert.deepEqual(decodeProtobufObject(encodeProtobufObject(json, scheme), { into, scheme }), reread, `case ${i}: encoded`);
      }
    });
  }
});
