import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { StatusError } from '../../apimachinery/errors/index.js';
import { parseAccept } from '../../apimachinery/serializer/accept.js';
import { DEFAULT_ENDPOINT_RESTRICTIONS, negotiateOutputMediaType, negotiateOutputMediaTypeStream, resourceEndpointRestrictions, tryNegotiateOutputMediaType } from './negotiate.js';

const KUBECTL_TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const withTable = resourceEndpointRestrictions({ tableConvertor: true });
const withoutTable = resourceEndpointRestrictions({ tableConvertor: false });

describe('parseAccept', () => {
  test('orders by q, then concrete before wildcards, else as sent', () => {
    const got = parseAccept('*/*;q=0.8, application/*, application/yaml, application/json;q=0.9, text/plain;q=0');
    assert.deepEqual(
      got.map((c) => `${c.type}/${c.subtype}`),
      ['application/yaml', 'application/*', 'application/json', '*/*'],
    );
  });
  test('keeps parameters other than q', () => {
    assert.deepEqual(parseAccept('application/json;as=Table;g=meta.k8s.io;v=v1;q=1')[0]?.params, { as: 'Table', g: 'meta.k8s.io', v: 'v1' });
  });
});

describe('negotiateOutputMediaType', () => {
  const cases: { accept: string | undefined; restrictions?: typeof withTable; want: string | number }[] = [
    { accept: undefined, want: 'application/json' },
    { accept: '', want: 'application/json' },
    { accept: '*/*', want: 'application/json' },
    { accept: 'application/json, */*', want: 'application/json' },
    { accept: 'application/yaml', want: 'application/yaml' },
    { accept: KUBECTL_TABLE, want: 'application/json Table meta.k8s.io/v1' },
    { accept: 'application/json;as=Table;v=v1beta1;g=meta.k8s.io', want: 'application/json Table meta.k8s.io/v1beta1' },
    { accept: KUBECTL_TABLE, restrictions: withoutTable, want: 'application/json' },
    { accept: 'application/json;as=Table', want: 406 },
    { accept: 'application/json;as=Table;g=meta.k8s.io;v=v2', want: 406 },
    { accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1', want: 'application/json PartialObjectMetadata meta.k8s.io/v1' },
    { accept: 'application/json;as=APIGroupDiscoveryList;g=apidiscovery.k8s.io;v=v2,application/json', want: 'application/json' },
    { accept: 'application/vnd.kubernetes.protobuf', want: 406 },
    { accept: 'application/vnd.kubernetes.protobuf,application/json', want: 'application/json' },
    { accept: 'application/json;stream=watch', want: 'application/json' },
    { accept: 'application/json;sv=v2', want: 406 },
    { accept: 'text/html', want: 406 },
  ];
  for (const c of cases) {
    test(`${JSON.stringify(c.accept)} → ${c.want}`, () => {
      const run = (): string => {
        const m = negotiateOutputMediaType(c.accept, c.restrictions ?? withTable);
        return m.convert === undefined ? m.serializer.mediaType : `${m.serializer.mediaType} ${m.convert.kind} ${m.convert.group}/${m.convert.version}`;
      };
      if (typeof c.want === 'number') {
        assert.throws(run, (e: unknown) => e instanceof StatusError && e.code === 406 && e.message === 'only the following media types are accepted: application/json, application/yaml');
      } else {
        assert.equal(run(), c.want);
      }
    });
  }

  test('watch streams negotiate JSON only', () => {
    assert.equal(negotiateOutputMediaTypeStream(KUBECTL_TABLE, withTable).convert?.kind, 'Table');
    assert.throws(
      () => negotiateOutputMediaTypeStream('application/yaml', withTable),
      (e: unknown) => e instanceof StatusError && e.code === 406 && e.message === 'only the following media types are accepted: application/json;stream=watch',
    );
  });
});

describe('custom resources (1.32 unstructuredNegotiatedSerializer, StandardSerializers without protobuf)', () => {
  const cr = resourceEndpointRestrictions({ tableConvertor: true, customResource: true });
  const THREE = 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf';
  const notAcceptable = (message: string) => (e: unknown) => e instanceof StatusError && e.code === 406 && e.status.reason === 'NotAcceptable' && e.message === message;

  test('a 406 lists protobuf, which the object itself is never encoded in', () => {
    for (const accept of ['bogus', 'text/html', 'application/vnd.kubernetes.protobuf', 'application/json;as=Bogus', 'application/json;as=Table;g=meta.k8s.io;v=v2']) {
      assert.throws(() => negotiateOutputMediaType(accept, cr), notAcceptable(THREE), accept);
    }
    // Protobuf is passed over for the next clause; nothing else changes.
    assert.equal(negotiateOutputMediaType('application/vnd.kubernetes.protobuf, application/json', cr).serializer.mediaType, 'application/json');
    assert.equal(negotiateOutputMediaType('*/*', cr).serializer.mediaType, 'application/json');
    assert.equal(negotiateOutputMediaType(KUBECTL_TABLE, cr).convert?.kind, 'Table');
    // kube encodes PartialObjectMetadata in protobuf; we cannot, and refuse it.
    assert.throws(() => negotiateOutputMediaType('application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1', cr), notAcceptable(THREE));
  });

  test('a watch 406 lists the streaming serializers, protobuf too; a first match with no stream serializer fails', () => {
    const streams = 'only the following media types are accepted: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch';
    assert.throws(() => negotiateOutputMediaTypeStream('application/yaml', cr), notAcceptable(streams));
    assert.throws(() => negotiateOutputMediaTypeStream('application/yaml, application/json', cr), notAcceptable(streams));
    assert.equal(negotiateOutputMediaTypeStream('application/vnd.kubernetes.protobuf;stream=watch, application/json', cr).serializer.mediaType, 'application/json');
  });

  test('built-in kinds keep JSON and YAML, what they encode objects to', () => {
    assert.throws(() => negotiateOutputMediaType('bogus', withTable), notAcceptable('only the following media types are accepted: application/json, application/yaml'));
  });
});

describe('DEFAULT_ENDPOINT_RESTRICTIONS (errors)', () => {
  const pick = (accept: string | undefined): string => {
    const m = tryNegotiateOutputMediaType(accept, DEFAULT_ENDPOINT_RESTRICTIONS);
    return m === undefined ? 'none' : `${m.serializer.mediaType}${m.pretty ? ' pretty' : ''}`;
  };
  test('protobuf, JSON and YAML; no transformation, no server version', () => {
    assert.equal(pick(undefined), 'application/json');
    assert.equal(pick('application/vnd.kubernetes.protobuf'), 'application/vnd.kubernetes.protobuf');
    assert.equal(pick('application/vnd.kubernetes.protobuf, application/json'), 'application/vnd.kubernetes.protobuf');
    assert.equal(pick('application/yaml'), 'application/yaml');
    assert.equal(pick('application/json;pretty=1'), 'application/json pretty');
    assert.equal(pick('application/json;as=Table;v=v1;g=meta.k8s.io'), 'none');
    assert.equal(pick(KUBECTL_TABLE), 'application/json');
    assert.equal(pick('application/json;as=Table;g=meta.k8s.io;v=v1, application/yaml'), 'application/yaml');
    assert.equal(pick('application/json;sv=v1'), 'none');
    assert.equal(pick('text/html'), 'none');
  });
});
