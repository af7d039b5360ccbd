// Output negotiation and error encoding of custom resources and built-in kinds over HTTP, as
// 1.32's NegotiateOutputMediaType and responsewriters.ErrorNegotiated answer.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeStatusProtobuf } from '../../runtime/apimachinery/serializer/protobuf/status.js';
import { CRONTABS, createEstablishedCRD, cronTab, cronTabCRD, startEnv, type Env } from './env.js';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const THREE = 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf';

describe('media types of custom resources and their errors (CronTab on SQLite)', () => {
  let env: Env;
  before(async () => {
    env = await startEnv();
    await createEstablishedCRD(env.client, cronTabCRD(), CRONTABS);
    assert.equal((await env.client.json('POST', CRONTABS, cronTab('media'))).status, 201);
  });
  after(() => env.close());

  const get = (path: string, accept: string) => env.client.request({ path, headers: { Accept: accept } });

  test('an Accept nothing matches: 406 listing protobuf, as indented JSON (WriteRawJSON)', async () => {
    for (const path of [CRONTABS, `${CRONTABS}/media`]) {
      for (const accept of ['bogus', 'text/html', 'application/json;as=Bogus', 'application/json;as=Table;v=v9;g=meta.k8s.io']) {
        const r = await get(path, accept);
        assert.equal(r.status, 406, `${path} ${accept}`);
        assert.equal(r.headers['content-type'], 'application/json');
        assert.equal(r.text, `{\n  "kind": "Status",\n  "apiVersion": "v1",\n  "metadata": {},\n  "status": "Failure",\n  "message": "${THREE}",\n  "reason": "NotAcceptable",\n  "code": 406\n}`);
      }
    }
  });

  test("a body in an unknown format: 415 listing protobuf too (unstructuredNegotiatedSerializer); a protobuf body under Ignore is the protobuf decoder's 400", async () => {
    const body = JSON.stringify(cronTab('ct'));
    for (const type of ['text/plain', 'application/merge-patch+json', 'application/apply-patch+yaml', 'bogus/bogus', 'multipart/form-data']) {
      const r = await env.client.request({ method: 'POST', path: CRONTABS, body, headers: { 'Content-Type': type } });
      assert.deepEqual(
        [r.status, (JSON.parse(r.text) as { message?: string }).message],
        [415, 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf'],
        type,
      );
    }
    const ignored = await env.client.request({ method: 'POST', path: `${CRONTABS}?fieldValidation=Ignore`, body, headers: { 'Content-Type': PROTOBUF } });
    assert.equal(ignored.status, 400);
    assert.match(
      String((JSON.parse(ignored.text) as { message?: string }).message),
      /^the object provided is unrecognized \(must be of type CronTab\): provided data does not appear to be a protobuf message, expected prefix \[107 56 115 0\] \(/,
    );
  });

  test('Accept: protobuf is a 406 written in protobuf, byte for byte as 1.32 (probe #290, #305)', async () => {
    const want = '6b3873000a0c0a02763112065374617475731299010a060a0012001a0012074661696c7572651a74' + Buffer.from(THREE).toString('hex') + '220d4e6f7441636365707461626c653096031a002200';
    for (const path of [CRONTABS, `${CRONTABS}/media`, `${CRONTABS}/absent`]) {
      const r = await get(path, PROTOBUF);
      assert.equal(r.status, 406, path);
      assert.equal(r.headers['content-type'], PROTOBUF);
      assert.equal(r.body.toString('hex'), want);
    }
    // A later clause serves the object; protobuf is only passed over.
    const list = await get(CRONTABS, `${PROTOBUF}, application/json`);
    assert.equal(list.status, 200);
    assert.equal(list.headers['content-type'], 'application/json');
  });

  test('an error after negotiation is written in the Accept’s first encoding: protobuf, YAML, pretty JSON', async () => {
    const pb = await get(`${CRONTABS}/absent`, `${PROTOBUF}, application/json`);
    assert.equal(pb.status, 404);
    assert.equal(pb.headers['content-type'], PROTOBUF);
    assert.deepEqual(decodeStatusProtobuf(pb.body), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'crontabs.stable.example.com "absent" not found',
      reason: 'NotFound',
      details: { name: 'absent', group: 'stable.example.com', kind: 'crontabs' },
      code: 404,
    });
    const yaml = await get(`${CRONTABS}/absent`, 'application/yaml');
    assert.equal(yaml.status, 404);
    assert.equal(yaml.headers['content-type'], 'application/yaml');
    // Key order is encodeYAML's (kube's JSONToYAML sorts keys: a gap of the YAML encoder, not of the negotiation).
    assert.ok(yaml.text.includes('message: crontabs.stable.example.com "absent" not found\n'), yaml.text);
    const pretty = await env.client.request({ path: `${CRONTABS}/absent`, headers: { Accept: 'application/json', 'User-Agent': 'Mozilla/5.0 (X11)' } });
    assert.equal(pretty.status, 404);
    assert.ok(pretty.text.startsWith('{\n  "kind": "Status",\n'), pretty.text);
  });

  test('a watch whose first match cannot stream: 406 listing the streaming encodings, protobuf too', async () => {
    const r = await get(`${CRONTABS}?watch=true`, 'application/yaml');
    assert.equal(r.status, 406);
    // The Status itself is YAML: ErrorNegotiated negotiates the Accept again, where YAML matches.
    assert.equal(r.headers['content-type'], 'application/yaml');
    assert.ok(r.text.includes('message: "only the following media types are accepted: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch"\n'), r.text);
  });

  test('built-in kinds: objects in JSON and YAML only (the 406 says so), errors in protobuf as kube writes them', async () => {
    const bogus = await get('/api/v1/namespaces/default', 'bogus');
    assert.equal(bogus.status, 406);
    assert.equal(JSON.parse(bogus.text)['message'], 'only the following media types are accepted: application/json, application/yaml');
    const missing = await get('/api/v1/namespaces/absent', `${PROTOBUF}, application/json`);
    assert.equal(missing.status, 404);
    assert.equal(missing.headers['content-type'], PROTOBUF);
    assert.equal(decodeStatusProtobuf(missing.body)['message'], 'namespaces "absent" not found');
  });
});
