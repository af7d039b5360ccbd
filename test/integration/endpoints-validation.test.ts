// Endpoints are validated as kube's validateEndpointSubsets (pkg/apis/core/validation), in kube's
// words and order, and by nothing else: kube's OpenAPI publishes none of these rules, so no
// schema error (a pattern, a minimum, a required field) stands in front of them.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { describeBackends } from './harness.js';
import { HttpsClient, type StatusBody } from './https.js';

type Obj = Record<string, unknown>;
const ENDPOINTS = '/api/v1/namespaces/default/endpoints';
const IP_SYNTAX = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';
const LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

const endpoints = (name: string, subsets: unknown): Obj => ({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name }, subsets });
const causes = (body: Obj): string[] => ((body as unknown as StatusBody).details?.causes ?? []).map((c) => `${String(c.field)}: ${String(c.message)}`);

describeBackends(
  'Endpoints validation',
  (cp) => {
    let c: HttpsClient;
    before(() => {
      c = new HttpsClient(cp().credentials);
    });
    after(() => c.close());

    test('addresses: a valid IP, a DNS label hostname, a subdomain nodeName; loopback and link-local are accepted', async () => {
      const r = await c.json(
        'POST',
        ENDPOINTS,
        endpoints('addrs', [
          {
            addresses: [{ ip: 'abc' }, { ip: '127.0.0.1' }, { ip: '0.0.0.0' }, { ip: '169.254.1.1', hostname: 'Bad_Host' }, { ip: 'fe80::1' }, { ip: '224.0.0.5' }, { ip: '::ffff:127.0.0.2' }],
            notReadyAddresses: [{ ip: '10.0.0.1', nodeName: '' }, { ip: '010.0.0.2' }],
            ports: [{ port: 80 }],
          },
        ]),
      );
      assert.equal(r.status, 422, JSON.stringify(r.body));
      const at = (i: number): string => `subsets[0].addresses[${i}]`;
      // kube would also refuse addresses 1 to 6 (ValidateNonSpecialIP): accepted here on purpose
      // (endpoints-validation.ts says why).
      assert.deepEqual(causes(r.body), [
        `${at(0)}.ip: Invalid value: "abc": ${IP_SYNTAX}`,
        `${at(0)}.ip: Invalid value: "abc": must be a valid IP address`,
        `${at(3)}.hostname: Invalid value: "Bad_Host": ${LABEL}`,
        // nodeName is a pointer in Go: an empty one that was sent is checked
        `subsets[0].notReadyAddresses[0].nodeName: Invalid value: "": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ]);
    });

    test('subsets need an address; ports a number, a protocol, a name when there are several', async () => {
      const r = await c.json(
        'POST',
        ENDPOINTS,
        endpoints('ports', [
          { ports: [{ port: 80 }] },
          { addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 0 }, { name: 'b', port: 70000, protocol: 'ICMP' }, { name: 'c', port: 1, appProtocol: 'not valid' }] },
        ]),
      );
      assert.equal(r.status, 422, JSON.stringify(r.body));
      assert.deepEqual(causes(r.body), [
        'subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`',
        'subsets[1].ports[0].name: Required value',
        'subsets[1].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
        'subsets[1].ports[1].port: Invalid value: 70000: must be between 1 and 65535, inclusive',
        'subsets[1].ports[1].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
        "subsets[1].ports[2].appProtocol: Invalid value: \"not valid\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      ]);
      // A missing ip is Go's empty string, not a schema's "Required value".
      const noIP = await c.json('POST', ENDPOINTS, endpoints('noip', [{ addresses: [{}] }]));
      assert.deepEqual(causes(noIP.body), [`subsets[0].addresses[0].ip: Invalid value: "": ${IP_SYNTAX}`, 'subsets[0].addresses[0].ip: Invalid value: "": must be a valid IP address']);
    });

    test('valid Endpoints are stored with the protocol defaulted; an update is validated the same way', async () => {
      const ok = await c.json(
        'POST',
        ENDPOINTS,
        endpoints('ok', [{ addresses: [{ ip: '10.1.2.3', hostname: 'a', nodeName: 'node-1' }], notReadyAddresses: [{ ip: '2001:db8::1' }], ports: [{ port: 8080 }] }]),
      );
      assert.equal(ok.status, 201, JSON.stringify(ok.body));
      const subsets = ok.body['subsets'] as Array<{ ports: Array<Record<string, unknown>> }>;
      assert.equal(subsets[0]?.ports[0]?.['protocol'], 'TCP');
      const patched = await c.json('PATCH', `${ENDPOINTS}/ok`, { subsets: [{ addresses: [{ ip: '::1' }], ports: [{ port: 80 }, { port: 81 }] }] }, { 'Content-Type': 'application/merge-patch+json' });
      assert.deepEqual([patched.status, causes(patched.body)], [422, ['subsets[0].ports[0].name: Required value', 'subsets[0].ports[1].name: Required value']]);
    });

    test("a Service's externalIPs: a valid IP, then not a special one (ValidateNonSpecialIP, shared with Endpoints)", async () => {
      const svc = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'ext' }, spec: { ports: [{ port: 80 }], externalIPs: ['abc', '127.0.0.1', '192.0.2.7'] } };
      const r = await c.json('POST', '/api/v1/namespaces/default/services', svc);
      assert.deepEqual(
        [r.status, causes(r.body)],
        [422, [`spec.externalIPs[0]: Invalid value: "abc": ${IP_SYNTAX}`, 'spec.externalIPs[1]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)']],
      );
    });
  },
  { only: ['sqlite'] },
);
