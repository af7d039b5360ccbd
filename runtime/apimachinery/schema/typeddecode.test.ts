import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import coreV1OpenAPI from '../../../generated/openapi/core/v1.json' with { type: 'json' };
import coordinationV1OpenAPI from '../../../generated/openapi/coordination/v1.json' with { type: 'json' };
import type { OpenAPIComponentsDocument } from '../definition/resource.js';
import { jsonUnmarshalMessage, typeMismatch, unstructuredConverterMessage } from './typeddecode.js';

const core = coreV1OpenAPI as unknown as OpenAPIComponentsDocument;
const NAMESPACE = 'io.k8s.api.core.v1.Namespace';
const message = (obj: unknown, doc = core, root = NAMESPACE): string | undefined => {
  const m = typeMismatch(doc, root, obj);
  return m === undefined ? undefined : jsonUnmarshalMessage(m);
};

describe('typed decode of metav1.Time fields (metav1.Time.UnmarshalJSON, time.Parse RFC 3339)', () => {
  test('a string time.Parse refuses is its error, with no field context', () => {
    assert.equal(message({ metadata: { name: 'a', creationTimestamp: 'yesterday' } }), 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"');
    assert.equal(message({ metadata: { deletionTimestamp: '2024-13-01T00:00:00Z' } }), 'parsing time "2024-13-01T00:00:00Z": month out of range');
    assert.equal(message({ metadata: { managedFields: [{ manager: 'm', time: '2024-01-01T00:00:00Zjunk' }] } }), 'parsing time "2024-01-01T00:00:00Zjunk": extra text: "junk"');
    const m = typeMismatch(core, NAMESPACE, { metadata: { creationTimestamp: 'x' } });
    assert.ok(m !== undefined);
    assert.equal(unstructuredConverterMessage(m), 'parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"');
  });

  test('a value that is not a string is the type error of the string it decodes into', () => {
    assert.equal(message({ metadata: { creationTimestamp: 5 } }), 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string');
    assert.equal(message({ metadata: { managedFields: [{ time: {} }] } }), 'json: cannot unmarshal object into Go struct field ManagedFieldsEntry.metadata.managedFields.time of type string');
  });

  test('valid times and null decode; the time error ends the decode and wins over an earlier type error', () => {
    assert.equal(message({ metadata: { name: 'a', creationTimestamp: '2024-01-01T00:00:00Z', deletionTimestamp: null } }), undefined);
    assert.equal(message({ metadata: { labels: 'x', creationTimestamp: 'bad' } }), 'parsing time "bad" as "2006-01-02T15:04:05Z07:00": cannot parse "bad" as "2006"');
    assert.equal(
      message({ metadata: { labels: 'x', creationTimestamp: '2024-01-01T00:00:00Z' } }),
      'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.labels of type map[string]string',
    );
  });

  test('metav1.MicroTime fields (another layout) are not judged as metav1.Time', () => {
    const doc = coordinationV1OpenAPI as unknown as OpenAPIComponentsDocument;
    assert.equal(message({ spec: { renewTime: 'x' } }, doc, 'io.k8s.api.coordination.v1.Lease'), undefined);
  });
});

describe('typed decode of []byte fields (base64.StdEncoding, as encoding/json decodes them)', () => {
  const SECRET = 'io.k8s.api.core.v1.Secret';
  test('a string base64 refuses is its error, saved as is: the first error in document order wins', () => {
    assert.equal(message({ data: { a: '!!!' } }, core, SECRET), 'illegal base64 data at input byte 0');
    assert.equal(message({ data: { a: 'YQ==', b: 'YQ' } }, core, SECRET), 'illegal base64 data at input byte 0');
    assert.equal(message({ data: { a: 'YQ==\n', b: 'YWJj' } }, core, SECRET), undefined);
    assert.equal(message({ data: { a: '!!!' }, immutable: 'x' }, core, SECRET), 'illegal base64 data at input byte 0');
    assert.equal(message({ immutable: 'x', data: { a: '!!!' } }, core, SECRET), 'json: cannot unmarshal string into Go struct field Secret.immutable of type bool');
  });
  test('a value that is not a string is the type error of []uint8; the unstructured converter re-decodes the string', () => {
    assert.equal(message({ data: { a: 5 } }, core, SECRET), 'json: cannot unmarshal number into Go struct field Secret.data of type []uint8');
    const m = typeMismatch(core, SECRET, { data: { a: 'Y' } });
    assert.ok(m !== undefined);
    assert.equal(unstructuredConverterMessage(m), 'error decoding from json: illegal base64 data at input byte 0');
  });
});
