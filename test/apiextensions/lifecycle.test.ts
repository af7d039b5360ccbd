import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CRDS, CRONTABS, TABLE_ACCEPT, createEstablishedCRD, cronTab, cronTabCRD, cronTabSchema, cronTabVersion, eventually, startEnv, type Env, type Obj } from './env.js';

const WIDGETS = '/apis/other.example.com/v1/namespaces/default/widgets';
const spec = (o: Obj): Obj => o['spec'] as Obj;
const meta = (o: Obj): Obj => o['metadata'] as Obj;

describe('serving follows the CRD: rebuilt on spec changes, gone with the CRD', () => {
  let env: Env;
  before(async () => {
    env = await startEnv();
    await createEstablishedCRD(env.client, cronTabCRD(), CRONTABS);
    await createEstablishedCRD(env.client, cronTabCRD({ group: 'other.example.com', plural: 'widgets', kind: 'Widget' }), WIDGETS);
  });
  after(() => env.close());

  /** PUT of the CRD as `mutate` changes it, retried while controllers write its status. */
  async function updateCRD(name: string, mutate: (crd: { spec: { versions: Obj[] } }) => void): Promise<void> {
    for (;;) {
      const crd = (await env.client.json('GET', `${CRDS}/${name}`)).body as { spec: { versions: Obj[] } };
      mutate(crd);
      const r = await env.client.json('PUT', `${CRDS}/${name}`, crd);
      if (r.status === 200) return;
      if (r.status !== 409) throw new Error(`update ${name}: ${r.status} ${JSON.stringify(r.body)}`);
    }
  }

  test('a schema change takes effect: a field pruned before is kept after, a new default applies to stored objects; printer columns follow; open watches of the CRD end, others stay', async () => {
    const c = env.client;
    const before = await c.json('POST', CRONTABS, cronTab('pre', { cronSpec: '* * * * *', image: 'x', color: 'red' }));
    assert.equal(spec(before.body)['color'], undefined);

    const list = await c.json('GET', CRONTABS);
    const watch = await c.watch(`${CRONTABS}?watch=true&resourceVersion=${String(meta(list.body)['resourceVersion'])}`);
    const widgets = await c.json('GET', WIDGETS);
    const otherWatch = await c.watch(`${WIDGETS}?watch=true&resourceVersion=${String(meta(widgets.body)['resourceVersion'])}`);
    try {
      await updateCRD('crontabs.stable.example.com', (crd) => {
        crd.spec.versions = [
          cronTabVersion('v1', {
            storage: true,
            schema: cronTabSchema({ color: { type: 'string' }, tier: { type: 'string', default: 'gold' } }),
            extra: { additionalPrinterColumns: [{ name: 'Color', type: 'string', jsonPath: '.spec.color' }] },
          }),
        ];
      });
      await eventually(async () => {
        const r = await c.json('POST', CRONTABS, cronTab(`post-${Date.now()}`, { cronSpec: '* * * * *', image: 'x', color: 'blue' }));
        assert.equal(r.status, 201);
        assert.equal(spec(r.body)['color'], 'blue');
      });
      await watch.end(20_000);
      // Objects written before the new default read with it (defaults apply on read from storage).
      assert.equal(spec((await c.json('GET', `${CRONTABS}/pre`)).body)['tier'], 'gold');
      const items = (await c.json('GET', CRONTABS)).body['items'] as Obj[];
      assert.ok(
        items.every((i) => spec(i)['tier'] === 'gold'),
        JSON.stringify(items.map(spec)),
      );
      const table = await c.json('GET', CRONTABS, undefined, { Accept: TABLE_ACCEPT });
      assert.deepEqual(
        (table.body['columnDefinitions'] as Obj[]).map((d) => d['name']),
        ['Name', 'Color'],
      );

      // The other CRD's watch was not disturbed.
      await c.json('POST', WIDGETS, { apiVersion: 'other.example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { image: 'w' } });
      const [ev] = await otherWatch.until((evs) => evs.length >= 1);
      assert.equal(ev?.type, 'ADDED');
      assert.equal(otherWatch.ended, false);
    } finally {
      watch.close();
      otherWatch.close();
    }
  });

  test('a version that stops being served answers 404; served again, it answers again', async () => {
    const c = env.client;
    await updateCRD('widgets.other.example.com', (crd) => {
      crd.spec.versions = [cronTabVersion('v1', { storage: true, served: false })];
    });
    await eventually(async () => assert.equal((await c.request({ path: WIDGETS })).status, 404));
    await updateCRD('widgets.other.example.com', (crd) => {
      crd.spec.versions = [cronTabVersion('v1', { storage: true })];
    });
    await eventually(async () => assert.equal((await c.json('GET', WIDGETS)).status, 200));
  });

  test('deleting the CRD deletes its custom resources and stops serving them', async () => {
    const c = env.client;
    await c.json('POST', WIDGETS, { apiVersion: 'other.example.com/v1', kind: 'Widget', metadata: { name: 'doomed' }, spec: { image: 'd' } });
    const del = await c.json('DELETE', `${CRDS}/widgets.other.example.com`);
    assert.ok(del.status === 200 || del.status === 202, JSON.stringify(del.body));
    await eventually(async () => assert.equal((await c.json('GET', `${CRDS}/widgets.other.example.com`)).status, 404), 30_000);
    await eventually(async () => assert.equal((await c.request({ path: WIDGETS })).status, 404));
    // A CRD of the same name is a new CRD (new uid): nothing of the old one is served.
    await createEstablishedCRD(c, cronTabCRD({ group: 'other.example.com', plural: 'widgets', kind: 'Widget' }), WIDGETS);
    const list = await c.json('GET', WIDGETS);
    assert.deepEqual(list.body['items'], []);
  });
});
