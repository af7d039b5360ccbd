// Acceptance (issue 15): a fixed sequence of create, apply, update, forced apply, managedFields
// reset and status writes on a ConfigMap and on a custom resource, against the control plane
// command on SQLite and etcd, asserting after every step the managedFields kube-apiserver 1.32
// stores: entry order, every key of every entry in kube's order (manager, operation, apiVersion,
// time, fieldsType, fieldsV1, subresource) and the FieldsV1 bytes; times are checked to be RFC
// 3339 seconds and masked. Where each expectation comes from:
// - create: an Update entry whose maps added with the object carry "." (kube
//   test/integration/apiserver/apply TestDuplicatesInAssociativeLists, the "create" entry);
//   name, namespace and the other server-set metadata are never owned (internal/stripmeta.go);
// - apply: only the applied leaves and list items, no "." for maps (TestApplyManagedFields'
//   Apply entry); co-owning a field with the same value is no conflict;
// - an update of a field takes it from every other manager (TestApplyManagedFields: "updater"
//   takes data.key from the applier); a manager left with no field is dropped
//   (TestApplyRemovesEmptyManagedFields);
// - conflicts: 409 Conflict, one FieldManagerConflict cause per field, an Update manager printed
//   with its API version (internal/conflict.go, TestApplyUpdateApplyConflictForced); force takes the fields;
// - order: Apply entries before Update ones, then by time, then manager name (internal/
//   managedfields.go sortEncodedManagedFields); the managers here are named in the order they
//   act, so time and name agree whatever second each step falls in;
// - an empty managedFields list resets tracking, later updates are not tracked, and the next apply
//   first records the existing fields as "before-first-apply" (TestClearManagedFieldsWithUpdateEmptyList,
//   internal/skipnonapplied.go);
// - status writes are entries with "subresource": "status" (TestSubresourceField, TestDroppingSubresourceField).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { parse } from 'yaml';
import { createEstablishedCRD } from '../../apiextensions/env.js';
import { describeBackends, repoRoot } from '../harness.js';
import { HttpsClient } from '../https.js';
import { uniqueName } from '../objects.js';
import { assertManagedFields, entry, managedFieldsOf, oneConflictMessage, type ManagedFieldsEntry } from './managed.js';

type Obj = Record<string, unknown>;
const APPLY = 'application/apply-patch+yaml';
const MERGE = 'application/merge-patch+json';
const CRD = parse(readFileSync(join(repoRoot, 'apis/crds/stable.example.com_crontabs.yaml'), 'utf8')) as Obj;

const WIDGET_GROUP = 'ssa.example.com';
/** A CRD whose spec.config keeps whatever it is given. */
const WIDGET_CRD: Obj = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `widgets.${WIDGET_GROUP}` },
  spec: {
    group: WIDGET_GROUP,
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { config: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } } } },
      },
    ],
  },
};

/** kube's 409 for an apply conflicting with one field of one manager. */
function conflictStatus(manager: string, field: string): Obj {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: oneConflictMessage(manager, field),
    reason: 'Conflict',
    details: { causes: [{ reason: 'FieldManagerConflict', message: `conflict with ${manager}`, field }] },
    code: 409,
  };
}

describeBackends('managedFields after a sequence of writes', (cp) => {
  let c: HttpsClient;
  let ns = '';

  /** Sends one request; `body` is sent as is when a string (YAML), as JSON otherwise. */
  async function send(method: string, path: string, want: number, body?: unknown, contentType = 'application/json'): Promise<Obj> {
    const r = await c.request({
      method,
      path,
      headers: { Accept: 'application/json', ...(body !== undefined ? { 'Content-Type': contentType } : {}) },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    assert.equal(r.status, want, `${method} ${path}: ${r.text.slice(0, 2000)}`);
    return JSON.parse(r.text) as Obj;
  }
  const apply = (path: string, manager: string, body: unknown, o: { force?: boolean; want?: number } = {}): Promise<Obj> =>
    send('PATCH', `${path}?fieldManager=${manager}${o.force ? '&force=true' : ''}`, o.want ?? 200, body, APPLY);
  /** Reads the object and checks the stored managedFields are what the write answered. */
  async function stored(path: string, answered: Obj): Promise<Obj> {
    const got = await send('GET', path, 200);
    assert.equal(JSON.stringify(managedFieldsOf(got)), JSON.stringify(managedFieldsOf(answered)), 'what is stored is what the write answered');
    return got;
  }

  before(async () => {
    c = new HttpsClient(cp().credentials);
    ns = uniqueName('seq');
    await send('POST', '/api/v1/namespaces', 201, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    await createEstablishedCRD(c, CRD, '/apis/stable.example.com/v1/crontabs');
  });
  after(() => c.close());

  it('ConfigMap: create, apply (YAML), update, conflicting apply, forced apply, patch, reset, apply', async () => {
    const name = uniqueName('cm');
    const collection = `/api/v1/namespaces/${ns}/configmaps`;
    const path = `${collection}/${name}`;
    const creator = entry('a-creator', 'Update', 'v1', '{"f:data":{".":{},"f:key1":{}},"f:metadata":{"f:labels":{".":{},"f:app":{}}}}');

    // 1. POST by a-creator.
    let o = await send('POST', `${collection}?fieldManager=a-creator`, 201, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { app: 'demo' } }, data: { key1: 'v1' } });
    assertManagedFields(o, [creator], 'after create');

    // 2. b-applier applies a YAML body: key1 with the same value (co-owned) and key2.
    o = await apply(path, 'b-applier', `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  key1: v1\n  key2: v2\n`);
    assert.deepEqual(o['data'], { key1: 'v1', key2: 'v2' });
    assertManagedFields(o, [entry('b-applier', 'Apply', 'v1', '{"f:data":{"f:key1":{},"f:key2":{}}}'), creator], 'after the first apply');
    await stored(path, o);

    // 3. c-updater PUTs the object read back with key2 changed: key2 is now c-updater's alone.
    const current = await send('GET', path, 200);
    o = await send('PUT', `${path}?fieldManager=c-updater`, 200, { ...current, data: { key1: 'v1', key2: 'changed' } });
    const updater = entry('c-updater', 'Update', 'v1', '{"f:data":{"f:key2":{}}}');
    assertManagedFields(o, [entry('b-applier', 'Apply', 'v1', '{"f:data":{"f:key1":{}}}'), creator, updater], 'after the update');

    // 4. b-applier applies key2 again: conflict with the updater, nothing changes.
    const cfg = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { key1: 'v1', key2: 'v2' } };
    const refused = await apply(path, 'b-applier', cfg, { want: 409 });
    assert.equal(JSON.stringify(refused), JSON.stringify(conflictStatus('"c-updater" using v1', '.data.key2')));
    assert.deepEqual((await stored(path, o))['data'], { key1: 'v1', key2: 'changed' });

    // 5. Forced: b-applier takes key2; c-updater owns nothing more and is dropped.
    o = await apply(path, 'b-applier', cfg, { force: true });
    assert.deepEqual(o['data'], { key1: 'v1', key2: 'v2' });
    const applier = entry('b-applier', 'Apply', 'v1', '{"f:data":{"f:key1":{},"f:key2":{}}}');
    assertManagedFields(o, [applier, creator], 'after the forced apply');

    // 6. d-patcher adds a label by merge patch.
    o = await send('PATCH', `${path}?fieldManager=d-patcher`, 200, { metadata: { labels: { tier: 'web' } } }, MERGE);
    assertManagedFields(o, [applier, creator, entry('d-patcher', 'Update', 'v1', '{"f:metadata":{"f:labels":{"f:tier":{}}}}')], 'after the merge patch');
    await stored(path, o);

    // 7. An empty list resets tracking; a later update is not tracked.
    o = await send('PATCH', path, 200, { metadata: { managedFields: [] } }, MERGE);
    assert.deepEqual(managedFieldsOf(o), []);
    o = await send('PATCH', `${path}?fieldManager=e-untracked`, 200, { metadata: { labels: { late: 'yes' } } }, MERGE);
    assert.deepEqual(managedFieldsOf(o), [], 'updates of an untracked object stay untracked');

    // 8. The next apply records what exists as "before-first-apply", then applies. key1 has that
    // value already: the apply changes nothing, and kube then sets no time on the applier's new
    // entry (managedfieldsupdater.go stamps a time only when the apply returned an object; SMD's
    // Updater returns none for a no-op).
    o = await apply(path, 'b-applier', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { key1: 'v1' } });
    assert.deepEqual(o['data'], { key1: 'v1', key2: 'v2' }, 'b-applier no longer owned key2, so dropping it removes nothing');
    assertManagedFields(
      o,
      [
        entry('b-applier', 'Apply', 'v1', '{"f:data":{"f:key1":{}}}', undefined, true),
        entry('before-first-apply', 'Update', 'v1', '{"f:data":{".":{},"f:key1":{},"f:key2":{}},"f:metadata":{"f:labels":{".":{},"f:app":{},"f:late":{},"f:tier":{}}}}'),
      ],
      'after the first apply to an untracked object',
    );
    await stored(path, o);
  });

  it('CronTab: apply-create, patch, status update, conflicting apply, forced apply, status apply', async () => {
    const name = uniqueName('ct');
    const gv = 'stable.example.com/v1';
    const path = `/apis/${gv}/namespaces/${ns}/crontabs/${name}`;
    const cronTab = (spec: Obj): Obj => ({ apiVersion: gv, kind: 'CronTab', metadata: { name }, spec });
    const statusWriter = entry('c-status', 'Update', gv, '{"f:status":{".":{},"f:replicas":{}}}', 'status');

    // 1. a-applier creates the object by applying it.
    let o = await apply(path, 'a-applier', cronTab({ cronSpec: '* * * * */5', image: 'img:1' }), { want: 201 });
    assertManagedFields(o, [entry('a-applier', 'Apply', gv, '{"f:spec":{"f:cronSpec":{},"f:image":{}}}')], 'after the apply that created it');

    // 2. b-patcher sets replicas by merge patch.
    o = await send('PATCH', `${path}?fieldManager=b-patcher`, 200, { spec: { replicas: 2 } }, MERGE);
    const patcher = entry('b-patcher', 'Update', gv, '{"f:spec":{"f:replicas":{}}}');
    assertManagedFields(o, [entry('a-applier', 'Apply', gv, '{"f:spec":{"f:cronSpec":{},"f:image":{}}}'), patcher], 'after the patch');

    // 3. c-status writes the status through its subresource.
    o = await send('PATCH', `${path}/status?fieldManager=c-status`, 200, { status: { replicas: 2 } }, MERGE);
    const applied: ManagedFieldsEntry = entry('a-applier', 'Apply', gv, '{"f:spec":{"f:cronSpec":{},"f:image":{}}}');
    assertManagedFields(o, [applied, patcher, statusWriter], 'after the status update');
    await stored(path, o);

    // 4. a-applier applies replicas too: conflict with b-patcher.
    const cfg = cronTab({ cronSpec: '* * * * */5', image: 'img:2', replicas: 3 });
    const refused = await apply(path, 'a-applier', cfg, { want: 409 });
    assert.equal(JSON.stringify(refused), JSON.stringify(conflictStatus(`"b-patcher" using ${gv}`, '.spec.replicas')));

    // 5. Forced: b-patcher is left with nothing and dropped.
    o = await apply(path, 'a-applier', cfg, { force: true });
    assert.deepEqual(o['spec'], { cronSpec: '* * * * */5', image: 'img:2', replicas: 3 });
    const forced = entry('a-applier', 'Apply', gv, '{"f:spec":{"f:cronSpec":{},"f:image":{},"f:replicas":{}}}');
    assertManagedFields(o, [forced, statusWriter], 'after the forced apply');

    // 6. d-status-applier applies the status subresource: an Apply entry for "status".
    o = await apply(`${path}/status`, 'd-status-applier', { apiVersion: gv, kind: 'CronTab', metadata: { name }, status: { labelSelector: 'app=cron' } });
    assert.deepEqual(o['status'], { replicas: 2, labelSelector: 'app=cron' });
    assertManagedFields(o, [forced, entry('d-status-applier', 'Apply', gv, '{"f:status":{"f:labelSelector":{}}}', 'status'), statusWriter], 'after the status apply');
    await stored(path, o);
  });

  it('TestSubresourceField on a CronTab: a write to /scale is an Update entry of the parent with subresource "scale"', async () => {
    const name = uniqueName('sc');
    const gv = 'stable.example.com/v1';
    const path = `/apis/${gv}/namespaces/${ns}/crontabs/${name}`;
    const cfg = { apiVersion: gv, kind: 'CronTab', metadata: { name }, spec: { cronSpec: '* * * * */5', image: 'img:1', replicas: 3 } };
    await apply(path, 'manager', cfg, { want: 201 });
    await send('PATCH', `${path}/scale?fieldManager=manager`, 200, { spec: { replicas: 7 } }, MERGE);
    const o = await send('GET', path, 200);
    assert.equal((o['spec'] as Obj)['replicas'], 7);
    // kube's scale handler writes the entry back in the parent's version; its time is not compared
    // (ScaleHandler.ToParent takes times from the parent's entries).
    const entries = managedFieldsOf(o).map(({ time: _t, ...rest }) => rest);
    assert.equal(
      JSON.stringify(entries),
      JSON.stringify([
        { manager: 'manager', operation: 'Apply', apiVersion: gv, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:cronSpec': {}, 'f:image': {} } } },
        { manager: 'manager', operation: 'Update', apiVersion: gv, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } }, subresource: 'scale' },
      ]),
    );
    const refused = await apply(path, 'manager', cfg, { want: 409 });
    assert.equal(JSON.stringify(refused), JSON.stringify(conflictStatus(`"manager" with subresource "scale" using ${gv}`, '.spec.replicas')));
  });

  it('Flunder across its versions: a conflict is reported in the owner’s version, owners keep their versions (SMD update.go)', async () => {
    const name = uniqueName('fl');
    const beta = 'wardle.example.com/v1beta1';
    const alpha = 'wardle.example.com/v1alpha1';
    const path = (v: string): string => `/apis/${v}/namespaces/${ns}/flunders/${name}`;
    let o = await apply(path(beta), 'a-beta', { apiVersion: beta, kind: 'Flunder', metadata: { name, labels: { app: 'x' } }, spec: { flunderReference: 'r1' } }, { want: 201 });
    const betaEntry = entry('a-beta', 'Apply', beta, '{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:flunderReference":{}}}');
    assertManagedFields(o, [betaEntry], 'after the v1beta1 apply');
    // Read through v1alpha1, the entries stay as written (managedFields are never converted on read).
    assertManagedFields(await send('GET', path(alpha), 200), [betaEntry], 'read through v1alpha1');
    // b-alpha applies another reference through v1alpha1: the conflict names the field as a-beta owns it, in v1beta1.
    const cfg = { apiVersion: alpha, kind: 'Flunder', metadata: { name }, spec: { reference: 'r2', referenceType: 'Flunder' } };
    const refused = await apply(path(alpha), 'b-alpha', cfg, { want: 409 });
    assert.equal(JSON.stringify(refused), JSON.stringify(conflictStatus('"a-beta"', '.spec.flunderReference')));
    o = await apply(path(alpha), 'b-alpha', cfg, { force: true });
    assert.deepEqual(o['spec'], { reference: 'r2', referenceType: 'Flunder' });
    assertManagedFields(
      o,
      [entry('a-beta', 'Apply', beta, '{"f:metadata":{"f:labels":{"f:app":{}}}}'), entry('b-alpha', 'Apply', alpha, '{"f:spec":{"f:reference":{},"f:referenceType":{}}}')],
      'after the forced v1alpha1 apply',
    );
  });

  // Keys no schema declares are members themselves when they hold a map (SMD tofieldset.go inserts
  // the path of every map item that is not a declared field): hence "." under f:nested.
  it('a preserve-unknown-fields subtree of a CRD: maps owned key by key, lists whole (SMD deduced type, as kube-openapi schemaconv maps it)', async () => {
    await createEstablishedCRD(c, WIDGET_CRD, `/apis/${WIDGET_GROUP}/v1/widgets`);
    const name = uniqueName('w');
    const path = `/apis/${WIDGET_GROUP}/v1/namespaces/${ns}/widgets/${name}`;
    const widget = (config: Obj): Obj => ({ apiVersion: `${WIDGET_GROUP}/v1`, kind: 'Widget', metadata: { name }, spec: { config } });
    // "__proto__" as a key of the data (an own property, as JSON.parse makes it), never the prototype.
    let o = await apply(path, 'a-applier', widget(JSON.parse('{"nested":{"b":1,"__proto__":"p"},"list":[1,2]}') as Obj), { want: 201 });
    assertManagedFields(o, [entry('a-applier', 'Apply', `${WIDGET_GROUP}/v1`, '{"f:spec":{"f:config":{"f:list":{},"f:nested":{".":{},"f:__proto__":{},"f:b":{}}}}}')]);
    // Another applier adds a sibling key inside the subtree: no conflict, each owns its keys.
    o = await apply(path, 'b-applier', widget({ nested: { c: 'x' } }));
    assert.deepEqual((o['spec'] as Obj)['config'], JSON.parse('{"nested":{"b":1,"__proto__":"p","c":"x"},"list":[1,2]}'));
    assertManagedFields(o, [
      entry('a-applier', 'Apply', `${WIDGET_GROUP}/v1`, '{"f:spec":{"f:config":{"f:list":{},"f:nested":{".":{},"f:__proto__":{},"f:b":{}}}}}'),
      entry('b-applier', 'Apply', `${WIDGET_GROUP}/v1`, '{"f:spec":{"f:config":{"f:nested":{".":{},"f:c":{}}}}}'),
    ]);
    // A different list is a conflict on the whole list.
    const refused = await apply(path, 'b-applier', widget({ list: [3] }), { want: 409 });
    assert.equal(JSON.stringify(refused), JSON.stringify(conflictStatus('"a-applier"', '.spec.config.list')));
  });

  it('TestApplyGroupsManySeparateUpdates: 20 updaters leave 10 Update entries, the oldest merged into "ancient-changes"', async () => {
    const name = uniqueName('cap');
    const path = `/api/v1/namespaces/${ns}/configmaps/${name}`;
    let o = await apply(path, 'apply_test', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { applier: 'true' } } }, { want: 201 });
    for (let i = 0; i < 20; i++) o = await send('PATCH', `${path}?fieldManager=updater${i}`, 200, { metadata: { labels: { [`updater${i}`]: 'new' } } }, MERGE);
    const managers = managedFieldsOf(o).map((e) => `${e.manager ?? ''} ${e.operation ?? ''}`);
    assert.equal(managers.length, 11, managers.join(', '));
    assert.deepEqual(managers.slice(0, 2), ['apply_test Apply', 'ancient-changes Update']);
    // Which updaters keep entries of their own depends on the seconds their writes fell in (ties go by name), as in kube.
    assert.equal(new Set(managers.slice(2)).size, 9);
    for (const m of managers.slice(2)) assert.match(m, /^updater\d+ Update$/);
  });

  it('without fieldManager, the manager is the User-Agent up to its first "/" (managerOrUserAgent)', async () => {
    const name = uniqueName('ua');
    const r = await c.request({
      method: 'POST',
      path: `/api/v1/namespaces/${ns}/configmaps`,
      headers: { Accept: 'application/json', 'Content-Type': 'application/json', 'User-Agent': 'seq-tool/0.1 (linux/amd64) test' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' } }),
    });
    assert.equal(r.status, 201, r.text);
    assertManagedFields(JSON.parse(r.text), [entry('seq-tool', 'Update', 'v1', '{"f:data":{".":{},"f:k":{}}}')]);
  });

  it('an apply without fieldManager is refused as kube refuses it', async () => {
    const r = await c.request({
      method: 'PATCH',
      path: `/api/v1/namespaces/${ns}/configmaps/${uniqueName('cm')}`,
      headers: { Accept: 'application/json', 'Content-Type': APPLY },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap' }),
    });
    assert.equal(r.status, 422, r.text);
    assert.equal(
      JSON.stringify(JSON.parse(r.text)),
      JSON.stringify({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
        reason: 'Invalid',
        details: { group: 'meta.k8s.io', kind: 'PatchOptions', causes: [{ reason: 'FieldValueRequired', message: 'Required value: is required for apply patch', field: 'fieldManager' }] },
        code: 422,
      }),
    );
  });
});
