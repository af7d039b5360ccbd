import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { newNotAcceptable } from '../../errors/index.js';
import { decodeStatusProtobuf, encodeStatusProtobuf } from './status.js';

const THREE = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

describe('metav1.Status in protobuf (responsewriters.ErrorNegotiated)', () => {
  test("a 406 is the bytes 1.32 answers (the probe's #290/#305: the upstream body)", () => {
    const bytes = Buffer.from(encodeStatusProtobuf(newNotAcceptable(THREE).status as unknown as Record<string, unknown>));
    // k8s\0, Unknown{typeMeta{v1, Status}, raw (length 153: 0x99 0x01), "", ""}; raw: metadata
    // (ListMeta's three strings, always written), status, message, reason, no details, code 406 (0x96 0x03).
    assert.equal(
      bytes.toString('hex'),
      '6b3873000a0c0a02763112065374617475731299010a060a0012001a0012074661696c7572651a74' +
        Buffer.from('only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf').toString('hex') +
        '220d4e6f7441636365707461626c653096031a002200',
    );
    // The probe read the upstream body as UTF-8: the two varint continuation bytes became U+FFFD.
    assert.equal(
      bytes.toString('utf8'),
      'k8s\u0000\n\f\n\u0002v1\u0012\u0006Status\u0012\ufffd\u0001\n\u0006\n\u0000\u0012\u0000\u001a\u0000\u0012\u0007Failure\u001atonly the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf"\rNotAcceptable0\ufffd\u0003\u001a\u0000"\u0000',
    );
  });

  test('details in field-number order (uid, 6, after retryAfterSeconds), each cause {reason, message, field}', () => {
    const status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'm',
      reason: 'R',
      details: { name: 'n', group: 'g', kind: 'k', uid: 'u', causes: [{ reason: 'r', message: 'x', field: 'f' }], retryAfterSeconds: 3 },
      code: 429,
    };
    const raw = '0a060a0012001a00' + '12074661696c757265' + '1a016d' + '220152' + '2a19' + '0a016e' + '120167' + '1a016b' + '2209' + '0a0172' + '120178' + '1a0166' + '2803' + '320175' + '30ad03';
    const bytes = Buffer.from(encodeStatusProtobuf(status));
    assert.equal(bytes.toString('hex'), `6b3873000a0c0a02763112065374617475731235${raw}1a002200`);
    assert.deepEqual(decodeStatusProtobuf(bytes), status);
  });

  test('details absent is no field; a cause without a field is written with ""', () => {
    const bytes = Buffer.from(encodeStatusProtobuf({ status: 'Failure', message: '', reason: '', details: { causes: [{ reason: 'FieldValueRequired', message: 'Required value' }] }, code: 500 }));
    const back = decodeStatusProtobuf(bytes);
    assert.deepEqual(back['details'], { causes: [{ reason: 'FieldValueRequired', message: 'Required value' }] });
    assert.equal(back['code'], 500);
    const none = decodeStatusProtobuf(Buffer.from(encodeStatusProtobuf({ status: 'Success', code: 200 })));
    assert.deepEqual(none, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 200 });
  });
});
