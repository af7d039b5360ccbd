// Named lists on the wire: kube's `type ExtraValue []string` is the message
// `ExtraValue { repeated string items = 1; }` in protobuf and the plain array in JSON. Bodies are
// written with protobufjs from kube's generated.proto text (the messages below are declared as
// kube's authorization/v1 and authentication/v1 generated.proto declare them), decoded by the
// server's decoder; the server's encoder is read back with protobufjs.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import protobuf from 'protobufjs';
import { authenticationV1Protobuf } from '../../generated/protobuf/authentication/v1.js';
import { authorizationV1Protobuf } from '../../generated/protobuf/authorization/v1.js';
import { metaV1Protobuf } from '../../generated/protobuf/meta/v1.js';
import { decodeProtobufObject, encodeMessage, encodeProtobufObject, type ProtobufPackage, ProtobufScheme } from '../../runtime/apimachinery/serializer/protobuf/index.js';

const META_PROTO = `syntax = "proto2";
package k8s.io.apimachinery.pkg.apis.meta.v1;
message ObjectMeta {
  optional string name = 1;
  optional string generateName = 2;
  optional string namespace = 3;
  map<string, string> labels = 11;
}
`;

const RUNTIME_PROTO = `syntax = "proto2";
package k8s.io.apimachinery.pkg.runtime;
message TypeMeta { optional string apiVersion = 1; optional string kind = 2; }
message Unknown {
  optional TypeMeta typeMeta = 1;
  optional bytes raw = 2;
  optional string contentEncoding = 3;
  optional string contentType = 4;
}
`;

const AUTHORIZATION_PROTO = `syntax = "proto2";
package k8s.io.api.authorization.v1;
message ExtraValue { repeated string items = 1; }
message ResourceAttributes {
  optional string namespace = 1;
  optional string verb = 2;
  optional string group = 3;
  optional string version = 4;
  optional string resource = 5;
  optional string subresource = 6;
  optional string name = 7;
}
message NonResourceAttributes { optional string path = 1; optional string verb = 2; }
message SubjectAccessReviewSpec {
  optional ResourceAttributes resourceAttributes = 1;
  optional NonResourceAttributes nonResourceAttributes = 2;
  optional string user = 3;
  repeated string groups = 4;
  map<string, ExtraValue> extra = 5;
  optional string uid = 6;
}
message SubjectAccessReviewStatus {
  optional bool allowed = 1;
  optional bool denied = 4;
  optional string reason = 2;
  optional string evaluationError = 3;
}
message SubjectAccessReview {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional SubjectAccessReviewSpec spec = 2;
  optional SubjectAccessReviewStatus status = 3;
}
message SelfSubjectAccessReviewSpec {
  optional ResourceAttributes resourceAttributes = 1;
  optional NonResourceAttributes nonResourceAttributes = 2;
}
message SelfSubjectAccessReview {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional SelfSubjectAccessReviewSpec spec = 2;
  optional SubjectAccessReviewStatus status = 3;
}
`;

const AUTHENTICATION_PROTO = `syntax = "proto2";
package k8s.io.api.authentication.v1;
message ExtraValue { repeated string items = 1; }
message UserInfo {
  optional string username = 1;
  optional string uid = 2;
  repeated string groups = 3;
  map<string, ExtraValue> extra = 4;
}
message SelfSubjectReviewStatus { optional UserInfo userInfo = 1; }
message SelfSubjectReview {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional SelfSubjectReviewStatus status = 2;
}
`;

const root = new protobuf.Root();
for (const text of [RUNTIME_PROTO, META_PROTO, AUTHORIZATION_PROTO, AUTHENTICATION_PROTO]) protobuf.parse(text, root, { keepCase: true });
const kube = (name: string): protobuf.Type => root.lookupType(name);
const SAR = kube('k8s.io.api.authorization.v1.SubjectAccessReview');

/** A list of named lists and a single named-list field, which kube's review types do not have. */
const testPackage: ProtobufPackage = {
  apiVersion: 'test.example.com/v1',
  messages: [
    { name: 'test.Words', namedList: true, fields: [{ name: 'items', number: 1, type: 'string', cardinality: 'repeated' }] },
    {
      name: 'test.Table',
      kind: 'Table',
      fields: [
        { name: 'rows', number: 1, type: 'message', message: 'test.Words', cardinality: 'repeated', omitEmpty: true },
        { name: 'header', number: 2, type: 'message', message: 'test.Words', omitEmpty: true },
        { name: 'footer', number: 3, type: 'message', message: 'test.Words' },
      ],
    },
  ],
};
const scheme = new ProtobufScheme([metaV1Protobuf, authorizationV1Protobuf, authenticationV1Protobuf, testPackage]);

/** `k8s\0` + runtime.Unknown{typeMeta{apiVersion, kind}, raw}, the Unknown of kube's runtime/generated.proto. */
function envelope(apiVersion: string, kind: string, raw: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from([0x6b, 0x38, 0x73, 0x00]), kube('k8s.io.apimachinery.pkg.runtime.Unknown').encode({ typeMeta: { apiVersion, kind }, raw }).finish()]);
}

const decode = (apiVersion: string, kind: string, raw: Uint8Array): Record<string, unknown> => decodeProtobufObject(envelope(apiVersion, kind, raw), { into: { apiVersion, kind }, scheme });

/** `{ "__proto__": … }` as an own key, as JSON.parse makes it. */
const withProtoKey = <T>(value: T, rest: Record<string, T>): Record<string, T> => ({ ...(JSON.parse(`{"__proto__": ${JSON.stringify(value)}}`) as Record<string, T>), ...rest });

describe('named lists from kube-encoded bodies', () => {
  test('a SubjectAccessReview with extra decodes to the JSON kube writes (ExtraValue as the array, an empty one as [])', () => {
    const raw = SAR.encode({
      metadata: {},
      spec: {
        resourceAttributes: { namespace: 'ns', verb: 'get', resource: 'pods' },
        user: 'alice',
        groups: ['dev', 'system:authenticated'],
        extra: { scopes: { items: ['read', 'write'] }, empty: { items: [] }, 'example.com/tenant': { items: ['a'] } },
        uid: 'u-1',
      },
      status: {},
    }).finish();
    assert.deepEqual(decode('authorization.k8s.io/v1', 'SubjectAccessReview', raw), {
      kind: 'SubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: {},
      spec: {
        resourceAttributes: { namespace: 'ns', verb: 'get', resource: 'pods' },
        user: 'alice',
        groups: ['dev', 'system:authenticated'],
        extra: { scopes: ['read', 'write'], empty: [], 'example.com/tenant': ['a'] },
        uid: 'u-1',
      },
      status: { allowed: false },
    });
  });

  test('a map entry without a value is an empty list; a later entry of one key wins', () => {
    // ExtraEntry{key} alone, then two entries for "k": gogo keeps the last.
    const w = protobuf.Writer.create();
    w.uint32((5 << 3) | 2)
      .fork()
      .uint32((1 << 3) | 2)
      .string('bare')
      .ldelim();
    for (const items of [['old'], ['new']]) {
      w.uint32((5 << 3) | 2)
        .fork()
        .uint32((1 << 3) | 2)
        .string('k')
        .uint32((2 << 3) | 2)
        .bytes(kube('k8s.io.api.authorization.v1.ExtraValue').encode({ items }).finish())
        .ldelim();
    }
    const raw = SAR.encode({ spec: {} }).finish();
    const spec = protobuf.Writer.create()
      .uint32((2 << 3) | 2)
      .bytes(w.finish())
      .finish();
    const decoded = decode('authorization.k8s.io/v1', 'SubjectAccessReview', Buffer.concat([raw, spec]));
    assert.deepEqual((decoded['spec'] as Record<string, unknown>)['extra'], { bare: [], k: ['new'] });
  });

  test('an extra key __proto__ is a key, not a prototype', () => {
    const w = protobuf.Writer.create();
    w.uint32((4 << 3) | 2)
      .fork()
      .uint32((1 << 3) | 2)
      .string('__proto__')
      .uint32((2 << 3) | 2)
      .bytes(
        kube('k8s.io.api.authentication.v1.ExtraValue')
          .encode({ items: ['polluted'] })
          .finish(),
      )
      .ldelim();
    const userInfo = w.finish();
    const status = protobuf.Writer.create()
      .uint32((1 << 3) | 2)
      .bytes(userInfo)
      .finish();
    const raw = protobuf.Writer.create()
      .uint32((2 << 3) | 2)
      .bytes(status)
      .finish();
    const decoded = decode('authentication.k8s.io/v1', 'SelfSubjectReview', raw);
    const extra = ((decoded['status'] as Record<string, unknown>)['userInfo'] as Record<string, unknown>)['extra'] as Record<string, unknown>;
    assert.deepEqual(Object.keys(extra), ['__proto__']);
    assert.deepEqual(Object.getOwnPropertyDescriptor(extra, '__proto__')?.value, ['polluted']);
    assert.equal(Object.getPrototypeOf(extra), Object.prototype);
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
  });

  test('lists of named lists: an empty element is [], a single named list not sent is null or left out', () => {
    const words = (items: readonly string[]): Uint8Array => {
      const list = protobuf.Writer.create();
      for (const item of items) list.uint32((1 << 3) | 2).string(item);
      return list.finish();
    };
    const w = protobuf.Writer.create();
    w.uint32((1 << 3) | 2).bytes(words(['a']));
    w.uint32((1 << 3) | 2).bytes(words([]));
    assert.deepEqual(decode('test.example.com/v1', 'Table', w.finish()), { kind: 'Table', apiVersion: 'test.example.com/v1', rows: [['a'], []], footer: null });
    const header = protobuf.Writer.create()
      .uint32((2 << 3) | 2)
      .bytes(words(['h']))
      .finish();
    assert.deepEqual(decode('test.example.com/v1', 'Table', header), { kind: 'Table', apiVersion: 'test.example.com/v1', header: ['h'], footer: null });
  });
});

describe('named lists written by the server', () => {
  const review = {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SubjectAccessReview',
    metadata: { name: 'r' },
    spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' }, user: 'bob', groups: ['g'], extra: { scopes: ['x', 'y'], none: [] } },
    status: { allowed: true, reason: 'RBAC: allowed' },
  };

  test('our encoding decodes with protobufjs to the message kube would send', () => {
    const ours = SAR.toObject(SAR.decode(encodeMessage(review, scheme.forKind(review)!)), { defaults: true });
    const theirs = SAR.toObject(
      SAR.decode(
        SAR.encode({
          metadata: { name: 'r', generateName: '', namespace: '' },
          spec: {
            nonResourceAttributes: { path: '/healthz', verb: 'get' },
            user: 'bob',
            groups: ['g'],
            extra: { scopes: { items: ['x', 'y'] }, none: { items: [] } },
            uid: '',
          },
          status: { allowed: true, denied: false, reason: 'RBAC: allowed', evaluationError: '' },
        }).finish(),
      ),
      { defaults: true },
    );
    assert.deepEqual(ours, theirs);
  });

  test('encode then decode gives the object back, __proto__ extra keys included', () => {
    const spec = { ...review.spec, extra: withProtoKey(['p'], { scopes: ['x'] }) };
    const object = { ...review, spec };
    const decoded = decodeProtobufObject(encodeProtobufObject(object, scheme), { into: object, scheme });
    const extra = (decoded['spec'] as Record<string, unknown>)['extra'] as Record<string, unknown>;
    assert.deepEqual(Object.keys(extra).sort(), ['__proto__', 'scopes']);
    assert.deepEqual(Object.getOwnPropertyDescriptor(extra, '__proto__')?.value, ['p']);
    assert.equal(Object.getPrototypeOf(extra), Object.prototype);
    assert.deepEqual(decoded['status'], review.status);
  });

  test('lists of named lists round-trip; a value that is not a list is refused', () => {
    const table = { apiVersion: 'test.example.com/v1', kind: 'Table', rows: [['a', 'b'], []], header: ['h'], footer: null };
    assert.deepEqual(decodeProtobufObject(encodeProtobufObject(table, scheme), { into: table, scheme }), table);
    assert.throws(() => encodeProtobufObject({ ...table, header: 'h' }, scheme), { name: 'ProtobufEncodeError', message: 'header: expected a list, got string' });
  });
});
