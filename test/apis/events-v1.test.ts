// events.k8s.io/v1 Event, the second view of the core Events' storage (issue 16), on SQLite and
// etcd: kube's cohabitating events resources (an Event written through either API is read,
// listed and watched through the other, encoded at rest as core/v1, one resourceVersion
// sequence), events/v1's field label conversions (AddFieldLabelConversionsForEvent), and
// ValidateEventCreate/Update per request version (pkg/apis/core/validation/events.go: strict in
// events.k8s.io/v1, legacy in core/v1) with kube's messages.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { metaV1Protobuf } from '../../generated/protobuf/meta/v1.js';
import { coreV1Protobuf } from '../../generated/protobuf/core/v1.js';
import { eventsV1Protobuf } from '../../generated/protobuf/events/v1.js';
import { decodeProtobufObject, encodeProtobufObject, ProtobufScheme } from '../../runtime/apimachinery/serializer/protobuf/index.js';
import { describeBackends } from '../integration/harness.js';
import { HttpsClient } from '../integration/https.js';

const NS = 'default';
const EVENTS = `/apis/events.k8s.io/v1/namespaces/${NS}/events`;
const CORE = `/api/v1/namespaces/${NS}/events`;
const NOW = '2024-05-01T10:00:00.000000Z';

/** A valid events.k8s.io/v1 Event (kube's integration test's shape). */
function newEvent(name: string, regarding = 'pod-a'): Record<string, unknown> {
  return {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name },
    eventTime: '2024-05-01T12:00:00.123456789+02:00',
    reportingController: 'k8s.io/tester',
    reportingInstance: 'tester-1',
    action: 'Testing',
    reason: 'Tested',
    regarding: { apiVersion: 'v1', kind: 'Pod', name: regarding, namespace: NS, uid: `uid-${regarding}` },
    note: 'written through events.k8s.io',
    type: 'Normal',
  };
}

/** An old client's core/v1 Event (no eventTime). */
function coreEvent(name: string): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name },
    involvedObject: { apiVersion: 'v1', kind: 'ConfigMap', name: 'cm-b', namespace: NS, uid: 'uid-cm-b' },
    reason: 'Created',
    message: 'written through core',
    type: 'Warning',
    source: { component: 'old-client', host: 'node-1' },
    firstTimestamp: '2024-05-01T10:00:00Z',
    lastTimestamp: '2024-05-01T10:05:00Z',
    count: 3,
  };
}

const names = (list: { body: Record<string, unknown> }): string[] => ((list.body['items'] ?? []) as Array<{ metadata: { name: string } }>).map((i) => i.metadata.name).sort();
const causes = (r: { body: Record<string, unknown> }): string => String(r.body['message']);

describeBackends('events.k8s.io/v1 Event', (cp) => {
  let c: HttpsClient;
  before(() => {
    c = new HttpsClient(cp().credentials);
  });
  after(() => c.close());

  it('written through events.k8s.io/v1, read through core/v1 with the fields kube converts, and back', async () => {
    const created = await c.json('POST', EVENTS, newEvent('via-events'));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body['eventTime'], '2024-05-01T10:00:00.123456Z');
    assert.deepEqual(created.body['deprecatedSource'], {});
    assert.equal(created.body['deprecatedFirstTimestamp'], null);
    const core = await c.json('GET', `${CORE}/via-events`);
    assert.equal(core.status, 200);
    assert.equal(core.body['apiVersion'], 'v1');
    assert.deepEqual(core.body['involvedObject'], { apiVersion: 'v1', kind: 'Pod', name: 'pod-a', namespace: NS, uid: 'uid-pod-a' });
    assert.equal(core.body['message'], 'written through events.k8s.io');
    assert.equal(core.body['reportingComponent'], 'k8s.io/tester');
    assert.equal(core.body['reportingInstance'], 'tester-1');
    assert.equal(core.body['eventTime'], '2024-05-01T10:00:00.123456Z');
    const meta = (o: Record<string, unknown>) => o['metadata'] as { uid: string; resourceVersion: string };
    assert.equal(meta(core.body).uid, meta(created.body).uid);
    assert.equal(meta(core.body).resourceVersion, meta(created.body).resourceVersion);

    const old = await c.json('POST', CORE, coreEvent('via-core'));
    assert.equal(old.status, 201, JSON.stringify(old.body));
    const viewed = await c.json('GET', `${EVENTS}/via-core`);
    assert.equal(viewed.status, 200, JSON.stringify(viewed.body));
    assert.equal(viewed.body['apiVersion'], 'events.k8s.io/v1');
    assert.equal(viewed.body['eventTime'], null);
    assert.equal(viewed.body['note'], 'written through core');
    assert.deepEqual(viewed.body['regarding'], { apiVersion: 'v1', kind: 'ConfigMap', name: 'cm-b', namespace: NS, uid: 'uid-cm-b' });
    assert.deepEqual(viewed.body['deprecatedSource'], { component: 'old-client', host: 'node-1' });
    assert.equal(viewed.body['deprecatedFirstTimestamp'], '2024-05-01T10:00:00Z');
    assert.equal(viewed.body['deprecatedLastTimestamp'], '2024-05-01T10:05:00Z');
    assert.equal(viewed.body['deprecatedCount'], 3);
    assert.equal(viewed.body['reportingController'], undefined);

    // One storage: both lists hold both Events at one resourceVersion.
    const [a, b] = [await c.json('GET', EVENTS), await c.json('GET', CORE)];
    assert.deepEqual(names(a), ['via-core', 'via-events']);
    assert.deepEqual(names(b), ['via-core', 'via-events']);
    assert.equal(a.body['kind'], 'EventList');
    assert.equal(a.body['apiVersion'], 'events.k8s.io/v1');
  });

  it('a watch of either API sees the writes of the other; an update through one is a MODIFIED of the other', async () => {
    const eventsWatch = await c.watch(`${EVENTS}?watch=true&fieldSelector=metadata.name%3Dwatched`);
    const coreWatch = await c.watch(`${CORE}?watch=true&fieldSelector=metadata.name%3Dwatched`);
    const created = await c.json('POST', CORE, { ...coreEvent('watched'), count: 1 });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const viaEvents = await c.json('GET', `${EVENTS}/watched`);
    // Through events.k8s.io/v1 an Event is immutable but for its metadata and series.
    const updated = await c.json('PUT', `${EVENTS}/watched`, { ...viaEvents.body, metadata: { ...(viaEvents.body['metadata'] as object), labels: { seen: 'twice' } } });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    const seen = await eventsWatch.until((es) => es.length >= 2);
    assert.deepEqual(
      seen.map((e) => [
        e.type,
        (e.object as { apiVersion: string }).apiVersion,
        (e.object as { deprecatedCount?: number }).deprecatedCount,
        (e.object as { metadata: { labels?: object } }).metadata.labels,
      ]),
      [
        ['ADDED', 'events.k8s.io/v1', 1, undefined],
        ['MODIFIED', 'events.k8s.io/v1', 1, { seen: 'twice' }],
      ],
    );
    const seenCore = await coreWatch.until((es) => es.length >= 2);
    assert.deepEqual(
      seenCore.map((e) => [e.type, (e.object as { apiVersion: string }).apiVersion, (e.object as { metadata: { labels?: object } }).metadata.labels]),
      [
        ['ADDED', 'v1', undefined],
        ['MODIFIED', 'v1', { seen: 'twice' }],
      ],
    );
    eventsWatch.close();
    coreWatch.close();
  });

  it("field selectors: events/v1's labels (regarding.*, reportingController, source, …), core/v1's in core; each refuses the other's", async () => {
    assert.equal((await c.json('POST', EVENTS, newEvent('sel-1', 'pod-sel'))).status, 201);
    assert.equal((await c.json('POST', EVENTS, { ...newEvent('sel-2', 'pod-other'), type: 'Warning' })).status, 201);
    const sel = async (base: string, selector: string) => c.json('GET', `${base}?fieldSelector=${encodeURIComponent(selector)}`);
    assert.deepEqual(names(await sel(EVENTS, 'regarding.name=pod-sel')), ['sel-1']);
    assert.deepEqual(names(await sel(EVENTS, 'regarding.kind=Pod,type=Warning')), ['sel-2']);
    assert.deepEqual(names(await sel(EVENTS, 'reportingController=k8s.io/tester,regarding.uid=uid-pod-sel')), ['sel-1']);
    assert.deepEqual(names(await sel(CORE, 'involvedObject.name=pod-sel')), ['sel-1']);
    assert.deepEqual(names(await sel(CORE, 'reportingComponent=k8s.io/tester,involvedObject.name=pod-other')), ['sel-2']);
    // `source`, which kube computes (ToSelectableFields): source.component, else the reporting controller.
    assert.deepEqual(names(await sel(EVENTS, 'source=k8s.io/tester,regarding.name=pod-sel')), ['sel-1']);
    assert.deepEqual(names(await sel(CORE, 'source=k8s.io/tester,involvedObject.name=pod-sel')), ['sel-1']);
    assert.deepEqual(names(await sel(EVENTS, 'source=old-client,regarding.name=cm-b')), ['via-core', 'watched']);
    assert.deepEqual(names(await sel(CORE, 'source=old-client')), ['via-core', 'watched']);
    assert.deepEqual(names(await sel(CORE, 'source!=old-client,involvedObject.kind=ConfigMap')), []);
    const refused = await sel(EVENTS, 'involvedObject.name=pod-sel');
    assert.equal(refused.status, 400);
    assert.equal(causes(refused), 'field label not supported: involvedObject.name');
    const refusedCore = await sel(CORE, 'regarding.name=pod-sel');
    assert.equal(refusedCore.status, 400);
    assert.equal(causes(refusedCore), 'field label not supported: regarding.name');
  });

  it('ValidateEventCreate in events.k8s.io/v1 is strict, with kube messages; the same Event passes core/v1', async () => {
    const lax = { ...newEvent('lax'), type: 'Odd', deprecatedCount: 2, deprecatedSource: { component: 'x' }, deprecatedFirstTimestamp: NOW, series: { count: 1, lastObservedTime: NOW } };
    const refused = await c.json('POST', EVENTS, lax);
    assert.equal(refused.status, 422, JSON.stringify(refused.body));
    assert.equal(
      causes(refused),
      'Event.events.k8s.io "lax" is invalid: [series.count: Invalid value: "": should be at least 2, type: Invalid value: "": has invalid value: Odd, firstTimestamp: Invalid value: "": needs to be unset, count: Invalid value: "": needs to be unset, source: Invalid value: "": needs to be unset]',
    );
    const missing = { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'bare' }, eventTime: NOW, regarding: { kind: 'Node', name: 'n1' } };
    const bare = await c.json('POST', EVENTS, missing);
    assert.equal(bare.status, 422);
    assert.match(
      causes(bare),
      /^Event\.events\.k8s\.io "bare" is invalid: \[reportingController: Required value, .*reportingInstance: Required value, action: Required value, reason: Required value, type: Invalid value: "": has invalid value: \]$/,
    );
    // core/v1 requests get the legacy validation only: the same fields are accepted there.
    const asCore = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'lax' },
      involvedObject: { kind: 'Pod', name: 'p', namespace: NS },
      type: 'Odd',
      count: 2,
      source: { component: 'x' },
      firstTimestamp: '2024-05-01T10:00:00Z',
    };
    assert.equal((await c.json('POST', CORE, asCore)).status, 201);
    // Names: DNS subdomains in events.k8s.io (ValidateObjectMeta), path segments in core.
    const badName = await c.json('POST', EVENTS, { ...newEvent('x'), metadata: { name: 'Not_A.DNS' } });
    assert.equal(badName.status, 422);
    assert.match(causes(badName), /^Event\.events\.k8s\.io "Not_A\.DNS" is invalid: metadata\.name: Invalid value: "Not_A\.DNS": a lowercase RFC 1123 subdomain/);
  });

  it('ValidateEventUpdate in events.k8s.io/v1: the Event is immutable (reason, checked twice, is one message: the aggregate dedups); core/v1 updates it', async () => {
    const created = await c.json('POST', EVENTS, newEvent('immutable'));
    assert.equal(created.status, 201);
    const changed = await c.json('PUT', `${EVENTS}/immutable`, { ...created.body, note: 'other', reason: 'Other', action: 'Else' });
    assert.equal(changed.status, 422, JSON.stringify(changed.body));
    assert.equal(
      causes(changed),
      'Event.events.k8s.io "immutable" is invalid: [reason: Invalid value: "Other": field is immutable, message: Invalid value: "other": field is immutable, action: Invalid value: "Else": field is immutable]',
    );
    const series = await c.json('PUT', `${EVENTS}/immutable`, { ...created.body, series: { count: 2, lastObservedTime: NOW } });
    assert.equal(series.status, 200, JSON.stringify(series.body));
    const core = await c.json('GET', `${CORE}/immutable`);
    const viaCore = await c.json('PUT', `${CORE}/immutable`, { ...core.body, message: 'changed through core' });
    assert.equal(viaCore.status, 200, JSON.stringify(viaCore.body));
    assert.equal((await c.json('GET', `${EVENTS}/immutable`)).body['note'], 'changed through core');
  });

  it("protobuf: client-go's request bodies in events.k8s.io/v1 (its messages reference core/v1's ObjectReference and EventSource)", async () => {
    const scheme = new ProtobufScheme([metaV1Protobuf, coreV1Protobuf, eventsV1Protobuf]);
    const event: Record<string, unknown> & { apiVersion: string; kind: string } = {
      ...newEvent('proto', 'pod-proto'),
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      eventTime: NOW,
      deprecatedSource: {},
    };
    const body = Buffer.from(encodeProtobufObject(event, scheme));
    // What the server decoded, re-encoded, is what was sent (the wire carries the referenced core messages).
    assert.deepEqual(decodeProtobufObject(body, { into: { apiVersion: 'events.k8s.io/v1', kind: 'Event' }, scheme })['regarding'], event['regarding']);
    const created = await c.request({ method: 'POST', path: EVENTS, headers: { 'content-type': 'application/vnd.kubernetes.protobuf', accept: 'application/json' }, body });
    assert.equal(created.status, 201, created.text);
    const got = JSON.parse(created.text) as Record<string, unknown>;
    assert.deepEqual(got['regarding'], { apiVersion: 'v1', kind: 'Pod', name: 'pod-proto', namespace: NS, uid: 'uid-pod-proto' });
    assert.equal(got['eventTime'], NOW);
    assert.equal((await c.json('GET', `${CORE}/proto`)).body['message'], 'written through events.k8s.io');
  });

  it("discovery: kube's events resource of events.k8s.io/v1 (short name ev, every verb)", async () => {
    const doc = await c.json('GET', '/apis/events.k8s.io/v1');
    assert.equal(doc.status, 200);
    const resources = doc.body['resources'] as Array<Record<string, unknown>>;
    const events = resources.find((r) => r['name'] === 'events');
    assert.deepEqual(
      { ...events, storageVersionHash: undefined },
      {
        name: 'events',
        singularName: 'event',
        namespaced: true,
        kind: 'Event',
        verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
        shortNames: ['ev'],
        storageVersionHash: undefined,
      },
    );
    // kube hashes the kind its storage encodes (core/v1 Event for both views), so the hashes agree.
    const core = ((await c.json('GET', '/api/v1')).body['resources'] as Array<Record<string, unknown>>).find((r) => r['name'] === 'events');
    assert.equal(typeof events?.['storageVersionHash'], 'string');
    assert.equal(events?.['storageVersionHash'], core?.['storageVersionHash']);
    const group = await c.json('GET', '/apis/events.k8s.io');
    assert.deepEqual(group.body['preferredVersion'], { groupVersion: 'events.k8s.io/v1', version: 'v1' });
  });

  it('errors name the resource of the request', async () => {
    const missing = await c.json('GET', `${EVENTS}/nowhere`);
    assert.equal(missing.status, 404);
    assert.equal(causes(missing), 'events.events.k8s.io "nowhere" not found');
    const dup = await c.json('POST', EVENTS, newEvent('via-events'));
    assert.equal(dup.status, 409);
    assert.equal(causes(dup), 'events.events.k8s.io "via-events" already exists');
  });
});
