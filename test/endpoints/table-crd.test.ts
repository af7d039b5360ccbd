// Tables of a CRD whose additionalPrinterColumns include the object's name, beside a built-in
// kind whose printer places it (Event): kube's CRD tableconvertor (apiextensions-apiserver
// pkg/registry/customresource/tableconvertor) always leads with Name and then lists every
// additionalPrinterColumn, so the name shows twice; kube's Event printer shows it once, last.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CRONTABS, TABLE_ACCEPT, createEstablishedCRD, cronTab, cronTabCRD, cronTabVersion, startEnv, type Env } from '../apiextensions/env.js';

interface Table {
  columnDefinitions: { name: string; format: string; priority: number }[];
  rows: { cells: unknown[] }[];
}

describe('Table of a CRD with a name printer column, and of Events', () => {
  let env: Env;
  before(async () => {
    env = await startEnv();
  });
  after(async () => {
    await env.close();
  });

  it('a CRD: Name, then its columns, its own name column among them', async () => {
    const c = env.client;
    const version = cronTabVersion('v1', {
      storage: true,
      extra: {
        additionalPrinterColumns: [
          { name: 'Spec', type: 'string', jsonPath: '.spec.cronSpec' },
          // kube's CRD validation allows no `name` format (int32, int64, float, double, byte, date, date-time, password).
          { name: 'Name', type: 'string', jsonPath: '.metadata.name', priority: 1 },
        ],
      },
    });
    await createEstablishedCRD(c, cronTabCRD({ versions: [version] }), CRONTABS);
    const created = await c.json('POST', CRONTABS, cronTab('ct1'));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const r = await c.json('GET', `${CRONTABS}/ct1`, undefined, { Accept: TABLE_ACCEPT });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const t = r.body as unknown as Table;
    assert.deepEqual(
      t.columnDefinitions.map((col) => [col.name, col.format, col.priority]),
      [
        ['Name', 'name', 0],
        ['Spec', '', 0],
        ['Name', '', 1],
      ],
    );
    assert.deepEqual(t.rows[0]?.cells, ['ct1', '* * * * */5', 'ct1']);
  });

  it('Events (a built-in printer): the name once, where the printer puts it', async () => {
    const r = await env.client.json('GET', '/api/v1/namespaces/default/events', undefined, { Accept: TABLE_ACCEPT });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const names = (r.body as unknown as Table).columnDefinitions.map((col) => col.name);
    assert.equal(names.filter((n) => n === 'Name').length, 1, names.join(','));
    assert.notEqual(names[0], 'Name');
  });
});
