// The API server leases behind the `kubernetes` Endpoints (kube's lease reconciler), on real
// SQLite storage: renewals keep one lease per IP alive (the generation moves, so the TTL is
// refreshed), every live lease is listed, a removed one is gone.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { APIServerLeases } from '../../runtime/controllers/kubernetesservice/leases.js';
import type { Interface } from '../../runtime/storage/index.js';
import { newEnv, type Env } from '../registry/helpers.js';

describe('API server leases (SQLite)', () => {
  let env: Env;
  let storage: Interface;
  before(async () => {
    env = await newEnv();
    storage = await env.factory.forResource({ resourcePrefix: '/masterleases/', watchCache: false });
  });
  after(() => env.close());

  test('two servers are listed sorted; a renewal writes (generation moves); a removed lease is gone', async () => {
    const leases = new APIServerLeases(storage);
    await leases.renew('192.0.2.9');
    await leases.renew('192.0.2.10');
    assert.deepEqual(await leases.ips(), ['192.0.2.10', '192.0.2.9']);
    const before = await storage.get('/masterleases/192.0.2.9');
    await leases.renew('192.0.2.9');
    const renewed = await storage.get('/masterleases/192.0.2.9');
    assert.equal(renewed?.metadata?.generation, (before?.metadata?.generation as number) + 1);
    assert.notEqual(renewed?.metadata?.resourceVersion, before?.metadata?.resourceVersion);
    await leases.remove('192.0.2.9');
    await leases.remove('192.0.2.9');
    assert.deepEqual(await leases.ips(), ['192.0.2.10']);
  });
});
