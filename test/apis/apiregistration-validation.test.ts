// apiregistration.k8s.io/v1 APIService validation as kube-aggregator's
// pkg/apis/apiregistration/validation (ValidateAPIService, ValidateAPIServiceStatus): the strategy's
// functions case by case, then over HTTPS, where they are the kind's whole validation (no schema
// check words an error before them).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { APIServiceStrategy } from '../../apis/apiregistration/v1/strategy.js';
import type { APIService, APIServiceSpec } from '../../apis/apiregistration/v1/types.js';
import { formatFieldError } from '../../runtime/apimachinery/validation/field.js';
import { ControlPlane } from '../integration/harness.js';
import { HttpsClient, type StatusBody } from '../integration/https.js';

const apiService = (spec: Partial<APIServiceSpec> | undefined, name = 'v1.foo.example.com'): APIService =>
  ({ metadata: { name }, ...(spec === undefined ? {} : { spec: { groupPriorityMinimum: 1000, versionPriority: 15, ...spec } }) }) as APIService;
const errors = (a: APIService): string[] => APIServiceStrategy.validate(a).map(formatFieldError);

const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

describe('APIService validation (kube-aggregator ValidateAPIService)', () => {
  test('a local APIService and a remote one are valid', () => {
    assert.deepEqual(errors(apiService({ group: 'foo.example.com', version: 'v1' })), []);
    assert.deepEqual(errors(apiService({ group: 'foo.example.com', version: 'v1', service: { namespace: 'ns', name: 'svc' } })), []);
    assert.deepEqual(errors(apiService({ group: '', version: 'v1' }, 'v1.')), []);
  });

  test('the name must be version.group, checked once it is a path segment', () => {
    assert.deepEqual(errors(apiService({ group: 'foo.example.com', version: 'v1' }, 'v2.foo.example.com')), [
      'metadata.name: Invalid value: "v2.foo.example.com": must be `spec.version+"."+spec.group`: "v1.foo.example.com"',
    ]);
    assert.deepEqual(errors(apiService({ group: 'foo.example.com', version: 'v1' }, 'a/b')), []);
  });

  test("group, version and the priorities, in kube's words", () => {
    assert.deepEqual(errors(apiService({ group: '', version: 'v2', groupPriorityMinimum: 0, versionPriority: 1001 }, 'v2.')), [
      'spec.group: Required value: only v1 may have an empty group and it better be legacy kube',
      'spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000',
      'spec.versionPriority: Invalid value: 1001: must be positive and less than 1000',
    ]);
    assert.deepEqual(errors(apiService({ group: 'foo.example.com', version: 'V1', groupPriorityMinimum: 20001 }, 'V1.foo.example.com')), [
      `spec.version: Invalid value: "V1": ${DNS1035}`,
      'spec.groupPriorityMinimum: Invalid value: 20001: must be positive and less than 20000',
    ]);
  });

  test("without a spec: Go's zero spec", () => {
    assert.deepEqual(errors(apiService(undefined, '.')), [
      'spec.group: Required value: only v1 may have an empty group and it better be legacy kube',
      `spec.version: Invalid value: "": ${DNS1035}`,
      'spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000',
      'spec.versionPriority: Invalid value: 0: must be positive and less than 1000',
    ]);
  });

  test('local APIServices have no caBundle or insecureSkipTLSVerify; remote ones need a service namespace, name and port', () => {
    assert.deepEqual(errors(apiService({ group: 'foo.example.com', version: 'v1', caBundle: Buffer.from('pem!').toString('base64'), insecureSkipTLSVerify: true })), [
      'spec.caBundle: Invalid value: "4 bytes": local APIServices may not have a caBundle',
      'spec.insecureSkipTLSVerify: Invalid value: true: local APIServices may not have insecureSkipTLSVerify',
    ]);
    assert.deepEqual(errors(apiService({ group: 'foo.example.com', version: 'v1', service: { port: 0 }, caBundle: 'eA==', insecureSkipTLSVerify: true })), [
      'spec.service.namespace: Required value',
      'spec.service.name: Required value',
      'spec.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive',
      'spec.insecureSkipTLSVerify: Invalid value: true: may not be true if caBundle is present',
    ]);
  });

  test('status conditions are True, False or Unknown', () => {
    const a = {
      ...apiService({ group: 'foo.example.com', version: 'v1' }),
      status: {
        conditions: [
          { type: 'Available', status: 'True' },
          { type: 'Available', status: 'Maybe' },
        ],
      },
    };
    assert.deepEqual(APIServiceStrategy.status.validateUpdate(a).map(formatFieldError), ['status.conditions[1].status: Unsupported value: "Maybe": supported values: "True", "False", "Unknown"']);
  });
});

describe('APIService validation over HTTPS', () => {
  let cp: ControlPlane;
  let c: HttpsClient;
  before(async () => {
    cp = await ControlPlane.start({ backend: 'sqlite' });
    c = new HttpsClient(cp.credentials);
  });
  after(async () => {
    c.close();
    await cp.stop();
  });

  test("kube's messages, not a schema's minimum or rule", async () => {
    const r = await c.json('POST', '/apis/apiregistration.k8s.io/v1/apiservices', {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: 'v1.bar.example.com' },
      spec: { group: 'foo.example.com', version: 'v1', groupPriorityMinimum: 0, versionPriority: 0, service: { namespace: 'ns' } },
    });
    assert.equal(r.status, 422, JSON.stringify(r.body));
    assert.equal(
      (r.body as unknown as StatusBody).message,
      'APIService.apiregistration.k8s.io "v1.bar.example.com" is invalid: [metadata.name: Invalid value: "v1.bar.example.com": must be `spec.version+"."+spec.group`: "v1.foo.example.com", spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000, spec.versionPriority: Invalid value: 0: must be positive and less than 1000, spec.service.name: Required value]',
    );
  });
});
