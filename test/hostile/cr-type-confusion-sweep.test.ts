// The type-confusion sweep (sweep.ts) over custom resources of CRDs people run, installed
// unchanged from the test fixtures: Gateway API's Gateway and HTTPRoute (dozens of CEL rules,
// list-type maps, defaults, enums, patterns, int-or-string ports), cert-manager's Certificate and
// prometheus-operator's PodMonitor. Each field of a valid object is replaced by every JSON type,
// null, empty containers and prototype keys, as a dry-run create, update, merge patch and
// server-side apply (the Gateway's status through /status): every answer must be a success, a
// 4xx Status or one of kube's own 500s, so no schema, default, pruning or CEL rule of theirs
// reaches code that assumed a type.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { parse } from 'yaml';
import { waitServed } from '../apiextensions/env.js';
import { describeBackends, repoRoot } from '../integration/harness.js';
import { HttpsClient } from '../integration/https.js';
import { assertStillServing, sweepObject, type Obj, type SweptObject } from './sweep.js';

const NS = 'cr-sweep';
const FIXTURES = join(repoRoot, 'test/codegen/fixtures/crds');
const TIME = '2026-11-27T00:00:00Z';

const CRDS = [
  'gateway-api/standard/gateway.networking.k8s.io_gateways.yaml',
  'gateway-api/standard/gateway.networking.k8s.io_httproutes.yaml',
  'cert-manager/cert-manager.io_certificates.yaml',
  'prometheus-operator/monitoring.coreos.com_podmonitors.yaml',
];

const OBJECTS: readonly SweptObject[] = [
  {
    collection: `/apis/gateway.networking.k8s.io/v1/namespaces/${NS}/gateways`,
    name: 'gw',
    valid: {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'Gateway',
      metadata: { name: 'gw', labels: { a: 'b' } },
      spec: {
        gatewayClassName: 'gc',
        listeners: [
          { name: 'http', port: 80, protocol: 'HTTP', hostname: 'example.com', allowedRoutes: { namespaces: { from: 'Same' }, kinds: [{ group: 'gateway.networking.k8s.io', kind: 'HTTPRoute' }] } },
          { name: 'https', port: 443, protocol: 'HTTPS', tls: { mode: 'Terminate', certificateRefs: [{ kind: 'Secret', name: 'cert' }] } },
        ],
        addresses: [{ type: 'IPAddress', value: '192.0.2.1' }],
      },
    },
    status: {
      conditions: [{ type: 'Accepted', status: 'True', reason: 'Accepted', message: 'm', lastTransitionTime: TIME, observedGeneration: 1 }],
      listeners: [
        {
          name: 'http',
          attachedRoutes: 1,
          supportedKinds: [{ kind: 'HTTPRoute' }],
          conditions: [{ type: 'Programmed', status: 'True', reason: 'Programmed', message: 'm', lastTransitionTime: TIME }],
        },
      ],
    },
  },
  {
    collection: `/apis/gateway.networking.k8s.io/v1/namespaces/${NS}/httproutes`,
    name: 'route',
    valid: {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'HTTPRoute',
      metadata: { name: 'route' },
      spec: {
        parentRefs: [{ name: 'gw', sectionName: 'http', port: 80 }],
        hostnames: ['example.com'],
        rules: [
          {
            matches: [{ path: { type: 'PathPrefix', value: '/api' }, headers: [{ name: 'x-env', value: 'prod' }], queryParams: [{ name: 'q', value: 'v' }], method: 'GET' }],
            filters: [{ type: 'RequestHeaderModifier', requestHeaderModifier: { set: [{ name: 'a', value: 'b' }], remove: ['c'] } }],
            backendRefs: [{ name: 'svc', port: 8080, weight: 1 }],
            timeouts: { request: '10s', backendRequest: '5s' },
          },
        ],
      },
    },
  },
  {
    collection: `/apis/cert-manager.io/v1/namespaces/${NS}/certificates`,
    name: 'cert',
    valid: {
      apiVersion: 'cert-manager.io/v1',
      kind: 'Certificate',
      metadata: { name: 'cert' },
      spec: {
        secretName: 'cert-tls',
        dnsNames: ['example.com'],
        duration: '2160h',
        renewBefore: '360h',
        issuerRef: { name: 'issuer', kind: 'Issuer', group: 'cert-manager.io' },
        privateKey: { algorithm: 'RSA', size: 2048, rotationPolicy: 'Always' },
        usages: ['server auth'],
        subject: { organizations: ['o'] },
      },
    },
  },
  {
    collection: `/apis/monitoring.coreos.com/v1/namespaces/${NS}/podmonitors`,
    name: 'pm',
    valid: {
      apiVersion: 'monitoring.coreos.com/v1',
      kind: 'PodMonitor',
      metadata: { name: 'pm' },
      spec: {
        selector: { matchLabels: { app: 'x' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['web'] }] },
        namespaceSelector: { matchNames: [NS] },
        podMetricsEndpoints: [{ port: 'metrics', interval: '30s', path: '/metrics', relabelings: [{ action: 'replace', sourceLabels: ['__meta_x'], targetLabel: 't' }] }],
      },
    },
  },
];

describeBackends(
  'type-confusion sweep over custom resources of real CRDs',
  (cp) => {
    let c: HttpsClient;
    before(async () => {
      c = new HttpsClient(cp().credentials, { maxSockets: 8 });
      assert.equal((await c.json('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } })).status, 201);
      for (const file of CRDS) {
        const crd = parse(readFileSync(join(FIXTURES, file), 'utf8')) as Obj;
        const r = await c.json('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
        assert.equal(r.status, 201, `${file}: ${JSON.stringify(r.body).slice(0, 3000)}`);
      }
      for (const o of OBJECTS) {
        await waitServed(c, o.collection);
        const r = await c.json('POST', o.collection, o.valid);
        assert.equal(r.status, 201, `${o.collection}: ${JSON.stringify(r.body).slice(0, 800)}`);
      }
    });
    after(() => c.close());

    it("every field replaced by every JSON type or a prototype key: a success, a 4xx Status or kube's own 500, never one of ours", async (t) => {
      let sent = 0;
      const failures: string[] = [];
      for (const o of OBJECTS) {
        const swept = await sweepObject(c, o);
        sent += swept.sent;
        failures.push(...swept.failures);
      }
      t.diagnostic(`${sent} requests`);
      assert.deepEqual(failures.slice(0, 40), [], `${failures.length} of ${sent} answers were neither a success, a 4xx Status nor kube's own 500`);
      await assertStillServing(c, () => cp().exited());
    });
  },
  { only: ['sqlite'] },
);
