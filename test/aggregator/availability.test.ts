// The availability controllers in the control plane (in this process, SQLite; checks every
// second): True/Passed for a reachable backend, False/FailedDiscoveryCheck with the last error
// while it is down (and a quick 503 naming the APIService, never a hang), True again when it
// is back; kube's reasons for a missing Service, port, Endpoints or addresses, each resolved in
// turn; a caBundle that does not verify the backend, or holds no certificate, is not
// available; insecureSkipTLSVerify is.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { asStatus } from '../integration/https.js';
import { registration, servingPKI, TestBackend } from './proxy-backend.js';
import { availability, startAggregatorEnv, type AggregatorEnv } from './proxy-env.js';

const NS = 'default';

describe('APIService availability', () => {
  let env: AggregatorEnv;
  const backends: TestBackend[] = [];

  before(async () => {
    env = await startAggregatorEnv();
  });
  after(async () => {
    for (const b of backends) await b.stop();
    await env?.close();
  });

  /** A backend for `group`/v1 behind Service `name`, registered with `o`; returns it once registered (not waiting for availability). */
  const register = async (group: string, name: string, o: Parameters<typeof registration>[2] = {}): Promise<TestBackend> => {
    const b = await TestBackend.start({ group, version: 'v1', service: { namespace: NS, name }, dataDir: env.dataDir });
    backends.push(b);
    const r = registration({ group, version: 'v1', port: b.port, caPEM: b.caPEM }, { namespace: NS, name }, o);
    await env.cs.coreV1().services(NS).create(r.service);
    await env.cs.coreV1().endpoints(NS).create(r.endpoints);
    await env.cs.apiregistrationV1().apiservices().create(r.apiService);
    return b;
  };

  test('backend up: True/Passed; down: 503 at once and False/FailedDiscoveryCheck with the last error; up again: True/Passed and served', async () => {
    const group = 'avail.example.com';
    const name = `v1.${group}`;
    const path = `/apis/${group}/v1/namespaces/${NS}/things`;
    const b = await register(group, 'avail-api');
    const passed = await availability(env.cs, name, 'True', 'Passed');
    assert.equal(passed.message, 'all checks passed');
    assert.equal((await env.admin.request({ path })).status, 200);

    await b.stop();
    // Whether the proxy or the controller notices first, the answer is a prompt 503 naming the APIService.
    const r = await env.admin.request({ path, timeoutMs: 15_000 });
    assert.equal(r.status, 503, r.text);
    const status = asStatus(r.text);
    assert.equal(status.reason, 'ServiceUnavailable');
    assert.match(status.message ?? '', new RegExp(`APIService "${name.replace(/\./g, '\\.')}"`));
    const failed = await availability(env.cs, name, 'False', 'FailedDiscoveryCheck');
    const url = `https://127.0.0.1:${b.port}/apis/${group}/v1`;
    assert.ok(failed.message?.startsWith(`failing or missing response from ${url}: Get "${url}": `), failed.message);
    assert.match(failed.message ?? '', /ECONNREFUSED/);
    const unavailable = await env.admin.request({ path });
    assert.equal(unavailable.status, 503);
    assert.equal(asStatus(unavailable.text).message, `service unavailable: APIService "${name}" is not available`);

    await b.listen();
    await availability(env.cs, name, 'True', 'Passed');
    const served = await env.admin.request({ path });
    assert.equal(served.status, 200, served.text);
  });

  test("kube's reasons for what is missing in front of the backend, each cleared in turn", async () => {
    const group = 'missing.example.com';
    const name = `v1.${group}`;
    const svcName = 'missing-api';
    const where = `service/${svcName} in "${NS}"`;
    const b = await TestBackend.start({ group, version: 'v1', service: { namespace: NS, name: svcName }, dataDir: env.dataDir });
    backends.push(b);
    const r = registration({ group, version: 'v1', port: b.port, caPEM: b.caPEM }, { namespace: NS, name: svcName });
    await env.cs.apiregistrationV1().apiservices().create(r.apiService);
    assert.equal((await availability(env.cs, name, 'False', 'ServiceNotFound')).message, `${where} is not present`);
    const proxied = await env.admin.request({ path: `/apis/${group}/v1/namespaces/${NS}/things` });
    assert.equal(proxied.status, 503, proxied.text);

    const services = env.cs.coreV1().services(NS);
    await services.create({ ...r.service, spec: { ports: [{ name: 'https', port: 8443, targetPort: b.port }] } });
    assert.equal((await availability(env.cs, name, 'False', 'ServicePortError')).message, `${where} is not listening on port 443`);
    const svc = await services.get(svcName);
    await services.update({ ...svc, spec: { ...svc.spec, ports: [{ name: 'https', port: 443, targetPort: b.port }] } });
    assert.equal((await availability(env.cs, name, 'False', 'EndpointsNotFound')).message, `cannot find endpoints for ${where}`);

    const endpoints = env.cs.coreV1().endpoints(NS);
    await endpoints.create({ ...r.endpoints, subsets: [{ notReadyAddresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: b.port }] }] });
    assert.equal((await availability(env.cs, name, 'False', 'MissingEndpoints')).message, `endpoints for ${where} have no addresses with port name "https"`);
    const eps = await endpoints.get(svcName);
    await endpoints.update({ ...eps, subsets: r.endpoints.subsets });
    await availability(env.cs, name, 'True', 'Passed');
  });

  test('a caBundle that does not verify the backend: not available, and requests are 503', async () => {
    const group = 'wrongca.example.com';
    const name = `v1.${group}`;
    const other = await servingPKI(['elsewhere.default.svc'], 'other-ca');
    await register(group, 'wrongca-api', { caPEM: other.caPEM });
    const c = await availability(env.cs, name, 'False', 'FailedDiscoveryCheck');
    assert.match(c.message ?? '', /certificate/i);
    const r = await env.admin.request({ path: `/apis/${group}/v1/namespaces/${NS}/things` });
    assert.equal(r.status, 503, r.text);
    assert.equal(asStatus(r.text).reason, 'ServiceUnavailable');
  });

  test("a caBundle without any certificate fails the check as kube's transport does", async () => {
    const group = 'badca.example.com';
    await register(group, 'badca-api', { caPEM: 'not a certificate' });
    const c = await availability(env.cs, `v1.${group}`, 'False', 'FailedDiscoveryCheck');
    assert.match(c.message ?? '', /unable to load root certificates: unable to parse bytes as PEM block$/);
  });

  test('insecureSkipTLSVerify reaches the backend without verifying it', async () => {
    const group = 'insecure.example.com';
    await register(group, 'insecure-api', { insecure: true });
    await availability(env.cs, `v1.${group}`, 'True', 'Passed');
    const r = await env.admin.request({ path: `/apis/${group}/v1/namespaces/${NS}/things` });
    assert.equal(r.status, 200, r.text);
  });
});
