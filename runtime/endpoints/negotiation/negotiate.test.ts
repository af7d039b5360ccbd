import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { StatusError } from '../../apimachinery/errors/index.js';
import { parseAccept } from '../../apimachinery/serializer/accept.js';
import { negotiateOutputMediaType, negotiateOutputMediaTypeStream, resourceEndpointRestrictions } from './negotiate.js';

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
