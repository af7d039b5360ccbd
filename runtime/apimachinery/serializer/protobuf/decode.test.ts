import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import protobuf from 'protobufjs/minimal.js';
import { StatusError } from '../../errors/index.js';
import { bodyMediaTypes, decodeTypedBody } from '../body.js';
import { decodeProtobufObject, type ProtobufPackage, ProtobufScheme } from './index.js';

// The decoder against real bytes (kubectl's, captured in fixtures/) and against bodies written
// here with protobufjs' Writer field by field, for the Go subtleties one at a time.

interface Fixture {
  readonly cases: readonly { readonly command: string; readonly path: string; readonly protobuf: string; readonly json: Record<string, unknown> }[];
}
const fixture = JSON.parse(readFileSync(new URL('./fixtures/kubectl-create.json', import.meta.url), 'utf8')) as Fixture;

const NAMESPACE = { apiVersion: 'v1', kind: 'Namespace' };
const SERVICE = { apiVersion: 'v1', kind: 'Service' };

/** A field written by hand: number, then how to write the value. */
type Put = (w: protobuf.Writer) => void;
const str =
  (n: number, s: string): Put =>
  (w) =>
    void w.uint32((n << 3) | 2).string(s);
const bytes =
  (n: number, b: Uint8Array): Put =>
  (w) =>
    void w.uint32((n << 3) | 2).bytes(b);
const varint =
  (n: number, v: number): Put =>
  (w) =>
    void w.uint32(n << 3).int64(v);
const msg =
  (n: number, ...fields: Put[]): Put =>
  (w) => {
    w.uint32((n << 3) | 2).fork();
    for (const f of fields) f(w);
    w.ldelim();
  };
function encode(...fields: Put[]): Uint8Array {
  const w = protobuf.Writer.create();
  for (const f of fields) f(w);
  return w.finish();
}
/** `k8s\0` + runtime.Unknown{typeMeta, raw}. */
function envelope(apiVersion: string, kind: string, raw: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from([0x6b, 0x38, 0x73, 0x00]), encode(msg(1, str(1, apiVersion), str(2, kind)), bytes(2, raw))]);
}

function decodeAs(into: { apiVersion: string; kind: string }, body: Uint8Array): Record<string, unknown> {
  return decodeProtobufObject(body, { into, kind: into.kind });
}

function statusOf(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof StatusError, `expected a StatusError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected a StatusError');
}

function badRequest(fn: () => unknown): string {
  const err = statusOf(fn);
  assert.equal(err.code, 400);
  assert.equal(err.status.reason, 'BadRequest');
  return err.message;
}

describe('protobuf bodies kubectl sends (captured)', () => {
  for (const c of fixture.cases) {
    test(`${c.command}: decodes to the JSON kubectl 1.31 sends for the same command`, () => {
      const into = { apiVersion: 'v1', kind: String(c.json['kind']) };
      const got = decodeAs(into, Buffer.from(c.protobuf, 'hex'));
      // apimachinery now tags creationTimestamp omitzero: a zero Time is left out rather than null.
      const meta = c.json['metadata'] as Record<string, unknown>;
      assert.equal(meta['creationTimestamp'], null);
      const { creationTimestamp: _, ...metadata } = meta;
      assert.deepEqual(got, { ...c.json, metadata });
    });
  }
});

describe('Go JSON semantics of decoded values', () => {
  test('zero scalars are kept without omitempty, dropped with it; structs are always written', () => {
    // ServicePort.port has no omitempty (0 stays), nodePort has (0 goes); ServiceSpec with only a port.
    const spec = msg(2, msg(1, varint(3, 0), varint(5, 0), str(1, ''), str(2, '')));
    const got = decodeAs(SERVICE, envelope('v1', 'Service', encode(spec)));
    assert.deepEqual(got, { kind: 'Service', apiVersion: 'v1', metadata: {}, spec: { ports: [{ port: 0, targetPort: 0 }] }, status: { loadBalancer: {} } });
  });

  test('pointer fields keep a zero value that was sent and stay absent when not sent', () => {
    const spec = msg(2, varint(20, 0), str(21, ''), varint(13, 0), varint(12, 0));
    const got = decodeAs(SERVICE, envelope('v1', 'Service', encode(spec)))['spec'];
    assert.deepEqual(got, { allocateLoadBalancerNodePorts: false, loadBalancerClass: '' });
  });

  test('Time: seconds in RFC 3339 (nanos dropped), zero time null, omitzero creationTimestamp left out, pointer deletionTimestamp kept', () => {
    const may1 = Date.UTC(2024, 4, 1, 10, 0, 0) / 1000;
    const withTimes = encode(msg(1, str(1, 'n'), msg(8, varint(1, may1), varint(2, 999_999_999)), msg(9)));
    assert.deepEqual(decodeAs(NAMESPACE, envelope('v1', 'Namespace', withTimes))['metadata'], {
      name: 'n',
      creationTimestamp: '2024-05-01T10:00:00Z',
      deletionTimestamp: null,
    });
    const zeroCreation = encode(msg(1, str(1, 'n'), msg(8)));
    assert.deepEqual(decodeAs(NAMESPACE, envelope('v1', 'Namespace', zeroCreation))['metadata'], { name: 'n' });
    // NamespaceCondition.lastTransitionTime is a non-pointer Time without omitzero: null when zero.
    const condition = encode(msg(3, msg(2, str(1, 'T'), str(2, 'True'), msg(4))));
    assert.deepEqual(decodeAs(NAMESPACE, envelope('v1', 'Namespace', condition))['status'], { conditions: [{ type: 'T', status: 'True', lastTransitionTime: null }] });
    const epoch = encode(msg(1, msg(8, varint(1, 0))));
    assert.deepEqual(decodeAs(NAMESPACE, envelope('v1', 'Namespace', epoch))['metadata'], { creationTimestamp: '1970-01-01T00:00:00Z' });
  });

  test('IntOrString: type 0 is the int, type 1 the string; another type is a 400', () => {
    const port = (...fields: Put[]): Uint8Array => encode(msg(2, msg(1, varint(3, 80), msg(4, ...fields))));
    const targetPort = (raw: Uint8Array): unknown => (decodeAs(SERVICE, envelope('v1', 'Service', raw))['spec'] as { ports: { targetPort: unknown }[] }).ports[0]!.targetPort;
    assert.equal(targetPort(port(varint(1, 0), varint(2, 8080), str(3, 'ignored'))), 8080);
    assert.equal(targetPort(port(varint(1, 1), varint(2, 7), str(3, 'http'))), 'http');
    assert.equal(targetPort(port()), 0);
    assert.match(
      badRequest(() => targetPort(port(varint(1, 2)))),
      /impossible IntOrString\.Type 2$/,
    );
  });

  test('maps are repeated {key=1, value=2} entries; a later key wins; missing key or value is ""', () => {
    const entry = (k: string | undefined, v: string | undefined): Put => msg(11, ...(k === undefined ? [] : [str(1, k)]), ...(v === undefined ? [] : [str(2, v)]));
    const raw = encode(msg(1, entry('a', '1'), entry('b', '2'), entry('a', '3'), entry(undefined, 'nokey'), entry('novalue', undefined)));
    assert.deepEqual(decodeAs(NAMESPACE, envelope('v1', 'Namespace', raw))['metadata'], { labels: { a: '3', b: '2', '': 'nokey', novalue: '' } });
  });

  test('a map key "__proto__" is an ordinary key', () => {
    const raw = encode(msg(1, msg(12, str(1, '__proto__'), str(2, 'x'))));
    const annotations = (decodeAs(NAMESPACE, envelope('v1', 'Namespace', raw))['metadata'] as { annotations: Record<string, string> }).annotations;
    assert.deepEqual(Object.keys(annotations), ['__proto__']);
    assert.equal(Object.getPrototypeOf(annotations), Object.prototype);
  });

  test('a message field sent twice is merged, as gogo unmarshals into the same struct', () => {
    const raw = encode(msg(1, str(1, 'first'), str(3, 'ns')), msg(1, str(1, 'second')));
    assert.deepEqual(decodeAs(NAMESPACE, envelope('v1', 'Namespace', raw))['metadata'], { name: 'second', namespace: 'ns' });
  });

  test('unknown field numbers of every wire type are skipped, groups included', () => {
    const unknowns: Put = (w) => {
      w.uint32((90 << 3) | 0).uint64(12345);
      w.uint32((91 << 3) | 1).fixed64(7);
      w.uint32((92 << 3) | 5).fixed32(7);
      w.uint32((93 << 3) | 2).string('skip me');
      w.uint32((94 << 3) | 3)
        .uint32((1 << 3) | 0)
        .uint32(1)
        .uint32((95 << 3) | 3)
        .uint32((95 << 3) | 4)
        .uint32((94 << 3) | 4);
    };
    const raw = encode(unknowns, msg(1, unknowns, str(1, 'kept')));
    assert.deepEqual(decodeAs(NAMESPACE, envelope('v1', 'Namespace', raw)), { kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'kept' }, spec: {}, status: {} });
  });

  test('repeated varints are read packed and unpacked', () => {
    const scheme = new ProtobufScheme([{ apiVersion: 't.io/v1', messages: [{ name: 't.Counts', kind: 'Counts', fields: [{ name: 'n', number: 1, type: 'int32', cardinality: 'repeated' }] }] }]);
    const packed: Put = (w) =>
      void w
        .uint32((1 << 3) | 2)
        .fork()
        .int32(1)
        .int32(-2)
        .ldelim();
    const raw = encode(packed, varint(1, 3));
    assert.deepEqual(decodeProtobufObject(envelope('t.io/v1', 'Counts', raw), { into: { apiVersion: 't.io/v1', kind: 'Counts' }, scheme }), { kind: 'Counts', apiVersion: 't.io/v1', n: [1, -2, 3] });
  });

  test('the envelope defaults kind and apiVersion from the endpoint; another known kind decodes as that kind', () => {
    const raw = encode(msg(1, str(1, 'n')));
    assert.deepEqual(decodeAs(NAMESPACE, envelope('', '', raw))['metadata'], { name: 'n' });
    const svc = decodeAs(NAMESPACE, envelope('v1', 'Service', raw));
    assert.equal(svc['kind'], 'Service', 'the pipeline then answers 400 for the kind mismatch');
    assert.equal(
      badRequest(() => decodeAs(NAMESPACE, envelope('v1', 'Pod', raw))),
      'Pod in version "v1" cannot be handled as a Namespace: no kind "Pod" is registered for version "v1"',
    );
  });

  test('DeleteOptions decode under any apiVersion (typed clients send their own group version)', () => {
    const raw = encode(varint(1, 0), msg(2, str(1, 'uid-1')), str(4, 'Foreground'), str(5, 'All'));
    for (const apiVersion of ['v1', 'apps/v1', 'meta.k8s.io/v1']) {
      const got = decodeProtobufObject(envelope(apiVersion, 'DeleteOptions', raw), { into: { apiVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions' } });
      assert.deepEqual(got, { kind: 'DeleteOptions', apiVersion, gracePeriodSeconds: 0, preconditions: { uid: 'uid-1' }, propagationPolicy: 'Foreground', dryRun: ['All'] });
    }
  });
});

describe('well-known types (test descriptors)', () => {
  const pkg: ProtobufPackage = {
    apiVersion: 't.io/v1',
    messages: [
      {
        name: 't.Widget',
        kind: 'Widget',
        fields: [
          { name: 'micro', number: 1, type: 'MicroTime', pointer: true, omitEmpty: true },
          { name: 'size', number: 2, type: 'Quantity', omitEmpty: true },
          { name: 'raw', number: 3, type: 'RawExtension', omitEmpty: true },
          { name: 'fields', number: 4, type: 'FieldsV1', pointer: true, omitEmpty: true },
          { name: 'data', number: 5, type: 'bytes', omitEmpty: true },
          { name: 'blob', number: 6, type: 'bytes' },
          { name: 'names', number: 7, type: 'string', cardinality: 'repeated' },
          { name: 'when', number: 8, type: 'Time', cardinality: 'repeated', omitEmpty: true },
        ],
      },
    ],
  };
  const scheme = new ProtobufScheme([pkg]);
  const widget = (...fields: Put[]): Record<string, unknown> =>
    decodeProtobufObject(envelope('t.io/v1', 'Widget', encode(...fields)), { into: { apiVersion: 't.io/v1', kind: 'Widget' }, kind: 'Widget', scheme });

  test('zero values: Quantity "0", RawExtension null, nil bytes null without omitempty, nil list null without omitempty', () => {
    assert.deepEqual(widget(), { kind: 'Widget', apiVersion: 't.io/v1', size: '0', raw: null, blob: null, names: null });
  });

  test('MicroTime keeps microseconds; Quantity as sent; RawExtension and FieldsV1 hold JSON; bytes are base64', () => {
    const got = widget(
      msg(1, varint(1, 1714557600), varint(2, 123_456_789)),
      msg(2, str(1, '500m')),
      msg(3, bytes(1, Buffer.from('{"a":[1]}'))),
      msg(4, bytes(1, Buffer.from('{"f:metadata":{}}'))),
      bytes(5, Buffer.from([1, 2, 3])),
      bytes(6, new Uint8Array(0)),
      str(7, 'x'),
      msg(8, varint(1, 0)),
      msg(8),
    );
    assert.deepEqual(got, {
      kind: 'Widget',
      apiVersion: 't.io/v1',
      micro: '2024-05-01T10:00:00.123456Z',
      size: '500m',
      raw: { a: [1] },
      fields: { 'f:metadata': {} },
      data: 'AQID',
      blob: '',
      names: ['x'],
      when: ['1970-01-01T00:00:00Z', null],
    });
  });

  test('values Go could not write as JSON are a 400', () => {
    assert.match(
      badRequest(() => widget(msg(2, str(1, 'lots')))),
      /quantities must match the regular expression/,
    );
    assert.match(
      badRequest(() => widget(msg(3, bytes(1, Buffer.from('{not json'))))),
      /RawExtension does not hold valid JSON$/,
    );
    assert.match(
      badRequest(() => widget(msg(3, bytes(1, Buffer.from([0x6b, 0x38, 0x73, 0x00, 1]))))),
      /RawExtension holds a protobuf-encoded object/,
    );
    assert.match(
      badRequest(() => widget(msg(1, varint(1, 300_000_000_000)))),
      /year outside of range \[0,9999\]$/,
    );
  });

  test('raw JSON nests no deeper than a JSON body; __proto__ keys in it are fields', () => {
    const deep = (n: number): Buffer => Buffer.from('{"a":'.repeat(n) + '1' + '}'.repeat(n));
    assert.match(
      badRequest(() => widget(msg(3, bytes(1, deep(1001))))),
      /RawExtension does not hold valid JSON$/,
    );
    assert.ok(widget(msg(3, bytes(1, deep(1000))))['raw']);
    const got = widget(msg(4, bytes(1, Buffer.from('{"__proto__":{"isAdmin":true},"f:constructor":{}}'))));
    assert.equal(JSON.stringify(got['fields']), '{"__proto__":{"isAdmin":true},"f:constructor":{}}');
    assert.equal(({} as Record<string, unknown>)['isAdmin'], undefined);
  });
});

describe('malformed bodies are 400 BadRequest, never a crash', () => {
  const valid = Buffer.from(fixture.cases[1]!.protobuf, 'hex');

  test("kube's wording for the envelope and for the object", () => {
    assert.equal(
      badRequest(() => decodeAs(NAMESPACE, Buffer.alloc(0))),
      'the object provided is unrecognized (must be of type Namespace): empty data (<empty>)',
    );
    assert.equal(
      badRequest(() => decodeAs(NAMESPACE, Buffer.from('{"kind":"Namespace"}'))),
      'the object provided is unrecognized (must be of type Namespace): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] ({"kind":"Namespace"})',
    );
    assert.equal(
      badRequest(() => decodeAs(NAMESPACE, Buffer.from([0x6b, 0x38, 0x73, 0x00]))),
      'the object provided is unrecognized (must be of type Namespace): empty body (6b387300)',
    );
    assert.equal(
      badRequest(() => decodeAs(SERVICE, valid.subarray(0, 40))),
      'the object provided is unrecognized (must be of type Service): unexpected EOF (6b3873000a0d0a02763112075365727669636512690a1f0a037765621200 ...)',
    );
    const truncatedRaw = encode(msg(1, str(1, 'name'))).subarray(0, 4);
    assert.equal(
      badRequest(() => decodeAs(SERVICE, envelope('v1', 'Service', truncatedRaw))),
      'Service in version "v1" cannot be handled as a Service: unexpected EOF',
    );
    assert.equal(
      badRequest(() => decodeAs(NAMESPACE, envelope('v1', 'Namespace', encode(varint(1, 5))))),
      'Namespace in version "v1" cannot be handled as a Namespace: proto: wrong wireType = 0 for field metadata',
    );
    assert.equal(
      badRequest(() => decodeAs(NAMESPACE, envelope('v1', 'Namespace', Buffer.from([0x00, 0x00])))),
      'Namespace in version "v1" cannot be handled as a Namespace: proto: Namespace: illegal tag 0 (wire type 0)',
    );
    assert.equal(
      badRequest(() => decodeAs(NAMESPACE, envelope('v1', 'Namespace', Buffer.from([0xd0, 0x05, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01])))),
      'Namespace in version "v1" cannot be handled as a Namespace: proto: integer overflow',
    );
    // Without a kind (DELETE bodies) the messages are bare, as decodeBody's are.
    assert.equal(
      badRequest(() => decodeProtobufObject(Buffer.alloc(0), { into: { apiVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions' } })),
      'empty data',
    );
  });

  test('every truncation of a real body decodes or is a 400', () => {
    for (let n = 0; n < valid.length; n++) {
      try {
        decodeAs(SERVICE, valid.subarray(0, n));
      } catch (err) {
        assert.ok(err instanceof StatusError && err.code === 400, `prefix ${n}: ${String(err)}`);
      }
    }
  });

  test('random bytes and bit flips of real bodies decode or are a 400 (seeded)', () => {
    const rng = mulberry32(0x5eed);
    const bodies = fixture.cases.map((c) => Buffer.from(c.protobuf, 'hex'));
    for (let i = 0; i < 3000; i++) {
      let body: Buffer;
      if (i % 2 === 0) {
        body = Buffer.concat([Buffer.from([0x6b, 0x38, 0x73, 0x00]), Buffer.from(Array.from({ length: Math.floor(rng() * 64) }, () => Math.floor(rng() * 256)))]);
      } else {
        body = Buffer.from(bodies[i % bodies.length]!);
        for (let flips = 1 + Math.floor(rng() * 3); flips > 0; flips--) {
          const at = 4 + Math.floor(rng() * (body.length - 4));
          body[at]! ^= 1 << Math.floor(rng() * 8);
        }
      }
      try {
        decodeAs(SERVICE, body);
      } catch (err) {
        assert.ok(err instanceof StatusError && err.code === 400, `case ${i} (${body.toString('hex')}): ${String(err)}`);
      }
    }
  });
});

describe('which kinds take protobuf bodies', () => {
  const widget = { apiVersion: 'example.com/v1', kind: 'Widget' };

  test('kinds with descriptors list protobuf in their 415; others answer 415 with JSON and YAML only', () => {
    assert.deepEqual(bodyMediaTypes(NAMESPACE), ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf']);
    assert.deepEqual(bodyMediaTypes({ apiVersion: 'autoscaling/v1', kind: 'Scale' }), ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf']);
    assert.deepEqual(bodyMediaTypes(widget), ['application/json', 'application/yaml']);
    const err = statusOf(() => decodeTypedBody(Buffer.from(fixture.cases[0]!.protobuf, 'hex'), 'application/vnd.kubernetes.protobuf', { into: widget, kind: 'Widget' }));
    assert.equal(err.code, 415);
    assert.equal(err.message, 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml');
    const text = statusOf(() => decodeTypedBody(Buffer.from('x'), 'text/plain', { into: NAMESPACE }));
    assert.equal(text.message, 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf');
  });

  test("a custom resource's 415 lists protobuf, as 1.32's CR serializer does (unstructuredNegotiatedSerializer)", () => {
    const THREE = 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf';
    assert.deepEqual(bodyMediaTypes(widget, undefined, true), ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf']);
    for (const ct of ['text/plain', 'bogus', 'multipart/form-data; boundary=x']) {
      const err = statusOf(() => decodeTypedBody(Buffer.from('{}'), ct, { into: widget, unstructured: true }));
      assert.equal(err.code, 415, ct);
      assert.equal(err.message, THREE);
    }
  });

  test("a custom resource in protobuf: 415 under Warn and Strict (1.32 panics on the unset StrictSerializer), the protobuf decoder's 400s under Ignore", () => {
    const THREE = 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf';
    const json = Buffer.from('{"apiVersion":"example.com/v1","kind":"Widget"}');
    for (const fieldValidation of [undefined, '', 'Warn', 'Strict']) {
      const err = statusOf(() => decodeTypedBody(json, 'application/vnd.kubernetes.protobuf', { into: widget, unstructured: true, ...(fieldValidation === undefined ? {} : { fieldValidation }) }));
      assert.equal(err.code, 415);
      assert.equal(err.message, THREE);
    }
    const ignore = (bytes: Uint8Array): StatusError => statusOf(() => decodeTypedBody(bytes, 'application/vnd.kubernetes.protobuf', { into: widget, unstructured: true, fieldValidation: 'Ignore' }));
    const noPrefix = ignore(json);
    assert.equal(noPrefix.code, 400);
    assert.equal(noPrefix.status.reason, 'BadRequest');
    assert.equal(
      noPrefix.message,
      'the object provided is unrecognized (must be of type Widget): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] ({"apiVersion":"example.com/v1" ...)',
    );
    assert.equal(ignore(new Uint8Array(0)).message, 'the object provided is unrecognized (must be of type Widget): empty data (<empty>)');
    assert.equal(ignore(Buffer.from([0x6b, 0x38, 0x73, 0x00])).message, 'the object provided is unrecognized (must be of type Widget): empty body (6b387300)');
    // A whole envelope: its kind (defaulted from the URL's) meets an *unstructured.Unstructured.
    const namespace = Buffer.from(fixture.cases[0]!.protobuf, 'hex');
    assert.equal(
      ignore(namespace).message,
      'Namespace in version "v1" cannot be handled as a Widget: object *unstructured.Unstructured does not implement the protobuf marshalling interface and cannot be encoded to a protobuf message',
    );
  });

  test('decodeTypedBody takes protobuf (with parameters) and JSON alike', () => {
    const body = Buffer.from(fixture.cases[0]!.protobuf, 'hex');
    const pb = decodeTypedBody(body, 'application/vnd.kubernetes.protobuf; charset=binary', { into: NAMESPACE, kind: 'Namespace' });
    assert.deepEqual(pb, { value: { kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'typed-ns' }, spec: {}, status: {} }, duplicateFields: [] });
    const json = decodeTypedBody(Buffer.from('{"kind":"Namespace","metadata":{"name":"a","name":"b"}}'), 'application/json', { into: NAMESPACE, kind: 'Namespace' });
    assert.deepEqual(json.duplicateFields, ['metadata.name']);
  });
});

/** A small seeded PRNG, so failures reproduce. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
