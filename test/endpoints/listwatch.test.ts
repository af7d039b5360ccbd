import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { flunderV1alpha1, startServer, TABLE_ACCEPT, V1ALPHA1, V1BETA1, type TestServer } from './helpers.js';

const NS = `${V1ALPHA1}/namespaces/lw/flunders`;
const NS_BETA = `${V1BETA1}/namespaces/lw/flunders`;

type Obj = { metadata: { name: string; resourceVersion: string } };

describe('endpoints over HTTP: list, watch, Table', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer();
    for (const [name, labels] of [
      ['a', { app: 'x' }],
      ['b', { app: 'y' }],
      ['c', { app: 'x' }],
    ] as const) {
      const r = await s.req('POST', NS, { body: flunderV1alpha1(name, { reference: 'r', referenceType: 'Fischer' }, { labels }) });
      assert.equal(r.status, 201, r.text);
    }
  });
  after(async () => {
    await s.close();
  });

  test('list: <Kind>List in the request version, items with apiVersion and kind', async () => {
    const r = await s.req('GET', NS_BETA);
    assert.equal(r.status, 200);
    const body = r.json();
    assert.equal(body['kind'], 'FlunderList');
    assert.equal(body['apiVersion'], 'wardle.example.com/v1beta1');
    assert.match(String((body['metadata'] as Record<string, unknown>)['resourceVersion']), /^\d+$/);
    assert.equal('continue' in (body['metadata'] as Record<string, unknown>), false, 'a typed ListMeta omits an empty continue');
    const items = body['items'] as Record<string, unknown>[];
    assert.deepEqual(
      items.map((i) => (i['metadata'] as { name: string }).name),
      ['a', 'b', 'c'],
    );
    assert.equal(items[0]?.['apiVersion'], 'wardle.example.com/v1beta1');
    assert.equal(items[0]?.['kind'], 'Flunder');
    assert.deepEqual(items[0]?.['spec'], { fischerReference: 'r', referenceType: 'Fischer' });
    const empty = await s.req('GET', `${V1ALPHA1}/namespaces/empty/flunders`);
    assert.deepEqual(empty.json()['items'], []);
  });

  test('paging with limit and continue keeps one resourceVersion', async () => {
    const first = (await s.req('GET', `${NS}?limit=2`)).json();
    const meta = first['metadata'] as { resourceVersion: string; continue: string; remainingItemCount?: number };
    assert.equal((first['items'] as unknown[]).length, 2);
    assert.notEqual(meta.continue ?? '', '');
    assert.equal(meta.remainingItemCount, 1);
    const second = (await s.req('GET', `${NS}?limit=2&continue=${encodeURIComponent(meta.continue)}`)).json();
    assert.deepEqual(
      (second['items'] as Obj[]).map((i) => i.metadata.name),
      ['c'],
    );
    assert.equal((second['metadata'] as { continue?: string }).continue ?? '', '');
    assert.equal((second['metadata'] as { resourceVersion: string }).resourceVersion, meta.resourceVersion);
  });

  test('selectors: labels, metadata.name, selectable fields; parse errors 400', async () => {
    const byLabel = (await s.req('GET', `${NS}?labelSelector=${encodeURIComponent('app=x')}`)).json();
    assert.deepEqual(
      (byLabel['items'] as Obj[]).map((i) => i.metadata.name),
      ['a', 'c'],
    );
    const byName = (await s.req('GET', `${NS}?fieldSelector=${encodeURIComponent('metadata.name=b')}`)).json();
    assert.deepEqual(
      (byName['items'] as Obj[]).map((i) => i.metadata.name),
      ['b'],
    );
    const byField = (await s.req('GET', `${NS}?fieldSelector=${encodeURIComponent('spec.referenceType=Fischer')}`)).json();
    assert.equal((byField['items'] as Obj[]).length, 3);
    const badLabel = await s.req('GET', `${NS}?labelSelector=${encodeURIComponent('app in (x')}`);
    assert.equal(badLabel.status, 400);
    const unsupported = await s.req('GET', `${NS}?fieldSelector=${encodeURIComponent('spec.foo=1')}`);
    assert.equal(unsupported.status, 400);
    assert.equal(unsupported.json()['message'], 'field label not supported: spec.foo');
  });

  test('ListOptions validation: 422 on invalid combinations, 400 on malformed numbers', async () => {
    const cases: [string, number, string][] = [
      ['resourceVersionMatch=NotOlderThan', 422, 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided'],
      [
        'resourceVersion=0&resourceVersionMatch=Exact',
        422,
        'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
      ],
      ['sendInitialEvents=true', 422, 'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list'],
      ['limit=abc', 400, 'strconv.ParseInt: parsing "abc": invalid syntax'],
      ['watch=true&timeoutSeconds=x', 400, 'strconv.ParseInt: parsing "x": invalid syntax'],
      ['watch=true&sendInitialEvents=true', 422, 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'],
    ];
    for (const [query, code, message] of cases) {
      const r = await s.req('GET', `${NS}?${query}`);
      assert.equal(r.status, code, query);
      assert.equal(r.json()['message'], message, query);
    }
  });

  test('Table: kubectl Accept, columns from the request version, Age formatted, includeObject', async () => {
    const alpha = await s.req('GET', NS, { headers: { accept: TABLE_ACCEPT } });
    assert.equal(alpha.status, 200);
    assert.equal(alpha.headers['content-type'], 'application/json');
    const t = alpha.json() as { kind: string; apiVersion: string; columnDefinitions: { name: string }[]; rows: { cells: unknown[]; object: Record<string, unknown> }[]; metadata: object };
    assert.equal(t.kind, 'Table');
    assert.equal(t.apiVersion, 'meta.k8s.io/v1');
    assert.deepEqual(
      t.columnDefinitions.map((c) => c.name),
      ['Name', 'Reference', 'Type', 'Age'],
    );
    assert.equal(t.rows.length, 3);
    assert.equal(t.rows[0]?.cells[0], 'a');
    assert.equal(t.rows[0]?.cells[1], 'r');
    assert.match(String(t.rows[0]?.cells[3]), /^\d+s$/);
    assert.equal(t.rows[0]?.object['kind'], 'PartialObjectMetadata');
    assert.equal(t.rows[0]?.object['apiVersion'], 'meta.k8s.io/v1');

    const beta = (await s.req('GET', `${NS_BETA}/a?includeObject=Object`, { headers: { accept: TABLE_ACCEPT } })).json() as typeof t;
    assert.deepEqual(
      beta.columnDefinitions.map((c) => c.name),
      ['Name', 'FlunderReference', 'FischerReference', 'Type', 'Age'],
    );
    assert.deepEqual(beta.rows[0]?.cells.slice(0, 4), ['a', null, 'r', 'Fischer']);
    assert.equal(beta.rows[0]?.object['apiVersion'], 'wardle.example.com/v1beta1');

    // None: kube clears each row's RawExtension, which its encoder writes as null.
    const none = await s.req('GET', `${NS}?includeObject=None`, { headers: { accept: TABLE_ACCEPT } });
    assert.match(none.text, /"object":null/);
    const bad = await s.req('GET', `${NS}?includeObject=Everything`, { headers: { accept: TABLE_ACCEPT } });
    assert.equal(bad.status, 400);
    assert.equal(bad.json()['message'], `Unable to convert to Table as requested: includeObject: Invalid value: "Everything": must be 'Metadata', 'Object', 'None', or empty`);
    const pom = await s.req('GET', `${NS}`, { headers: { accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1' } });
    assert.equal(pom.json()['kind'], 'PartialObjectMetadataList');
    // The 406s print the registry's Go type (%T): the internal version's.
    const pomOfList = await s.req('GET', NS, { headers: { accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1' } });
    assert.equal(pomOfList.status, 406);
    assert.equal(pomOfList.json()['message'], 'you requested PartialObjectMetadata, but the requested object is a list (*wardle.FlunderList)');
    const listOfOne = await s.req('GET', `${NS}/a`, { headers: { accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1' } });
    assert.equal(listOfOne.status, 406);
    assert.equal(listOfOne.json()['message'], 'you requested PartialObjectMetadataList, but the requested object is not a list (*wardle.Flunder)');
    // Objects are not encoded in protobuf (kube's typed kinds are: a gap); the 406 Status is, as ErrorNegotiated writes it.
    const notAcceptable = await s.req('GET', NS, { headers: { accept: 'application/vnd.kubernetes.protobuf' } });
    assert.equal(notAcceptable.status, 406);
    assert.equal(notAcceptable.headers['content-type'], 'application/vnd.kubernetes.protobuf');
    assert.ok(notAcceptable.text.includes('\u0007Failure\u001aOonly the following media types are accepted: application/json, application/yaml"\rNotAcceptable0'), notAcceptable.text);
  });

  test('watch: chunked newline-delimited events in the request version; timeoutSeconds ends it', async () => {
    const list = (await s.req('GET', NS)).json();
    const rv = (list['metadata'] as { resourceVersion: string }).resourceVersion;
    const w = await s.watch(`${NS_BETA}?watch=true&resourceVersion=${rv}&timeoutSeconds=5`, {
      onOpen: async () => {
        await s.req('PATCH', `${NS}/a`, { body: { metadata: { labels: { app: 'z' } } }, headers: { 'content-type': 'application/merge-patch+json' } });
        await s.req('DELETE', `${NS}/b`);
      },
      until: (lines) => lines.length >= 2,
    });
    assert.equal(w.status, 200);
    assert.equal(w.headers['content-type'], 'application/json');
    assert.equal(w.headers['transfer-encoding'], 'chunked');
    const events = w.lines.map((l) => JSON.parse(l) as { type: string; object: Record<string, unknown> & Obj });
    assert.deepEqual(
      events.map((e) => `${e.type} ${e.object.metadata.name}`),
      ['MODIFIED a', 'DELETED b'],
    );
    assert.equal(events[0]?.object['apiVersion'], 'wardle.example.com/v1beta1');
    assert.equal(events[0]?.object['kind'], 'Flunder');

    const timed = await s.watch(`${NS}?watch=1&resourceVersion=${rv}&timeoutSeconds=1`);
    assert.equal(timed.ended, true, 'the server ends the stream after timeoutSeconds');
  });

  test('bookmarks of a one-second watch: none from a resourceVersion; a watch-list (the 1.32 default) ends its initial events with one', async () => {
    const rv = ((await s.req('GET', NS)).json()['metadata'] as { resourceVersion: string }).resourceVersion;
    // cacheWatcher.nextBookmarkTime: 2 s before the deadline is already past, so no bookmark at all.
    const plain = await s.watch(`${NS}?watch=true&resourceVersion=${rv}&allowWatchBookmarks=true&timeoutSeconds=1`);
    assert.deepEqual(plain.lines, []);
    // No resourceVersion: SetListOptionsDefaults makes it a watch-list; "bogus" is true, as Go's
    // Convert_Slice_string_To_bool reads it. The bookmark the watch-list awaits may follow, plain.
    const wl = await s.watch(`${NS}?watch=true&allowWatchBookmarks=bogus&timeoutSeconds=1&fieldSelector=metadata.name%3Dnosuch`);
    const events = wl.lines.map((l) => JSON.parse(l) as { type: string; object: { metadata: { annotations?: Record<string, string> } } });
    assert.ok(events.length >= 1 && events.length <= 2, wl.lines.join('\n'));
    assert.equal(events[0]?.type, 'BOOKMARK');
    assert.deepEqual(events[0]?.object.metadata.annotations, { 'k8s.io/initial-events-end': 'true' });
    for (const e of events.slice(1)) assert.deepEqual([e.type, e.object.metadata.annotations], ['BOOKMARK', undefined]);
  });

  test('watch without resourceVersion starts with ADDED events; by name via the legacy /watch/ path', async () => {
    const all = await s.watch(`${NS}?watch=true&timeoutSeconds=5`, { until: (lines) => lines.length >= 2 });
    assert.deepEqual(
      all.lines.map((l) => (JSON.parse(l) as { type: string }).type),
      ['ADDED', 'ADDED'],
    );
    const one = await s.watch(`${V1ALPHA1}/watch/namespaces/lw/flunders/c?timeoutSeconds=5`, { until: (lines) => lines.length >= 1 });
    const ev = JSON.parse(one.lines[0] ?? '{}') as { type: string; object: Obj };
    assert.equal(`${ev.type} ${ev.object.metadata.name}`, 'ADDED c');
    const conflict = await s.req('GET', `${V1ALPHA1}/watch/namespaces/lw/flunders/c?fieldSelector=${encodeURIComponent('metadata.name=a')}`);
    assert.equal(conflict.status, 400);
    assert.equal(conflict.json()['message'], "fieldSelector metadata.name doesn't match requested name");
  });

  test('Table watch carries columns in the first event only', async () => {
    const list = (await s.req('GET', NS)).json();
    const rv = (list['metadata'] as { resourceVersion: string }).resourceVersion;
    const w = await s.watch(`${NS}?watch=true&resourceVersion=${rv}&timeoutSeconds=5`, {
      headers: { accept: TABLE_ACCEPT },
      onOpen: async () => {
        await s.req('POST', NS, { body: flunderV1alpha1('t1') });
        await s.req('POST', NS, { body: flunderV1alpha1('t2') });
      },
      until: (lines) => lines.length >= 2,
    });
    const events = w.lines.map((l) => JSON.parse(l) as { type: string; object: { kind: string; columnDefinitions: unknown[] | null; rows: { cells: unknown[] }[] } });
    assert.equal(events[0]?.object.kind, 'Table');
    assert.equal(events[0]?.object.columnDefinitions?.length, 4);
    assert.equal(events[0]?.object.rows[0]?.cells[0], 't1');
    assert.equal(events[1]?.object.columnDefinitions, null);
    assert.equal(events[1]?.object.rows[0]?.cells[0], 't2');
  });

  test('watch-list: initial ADDED events, then the initial-events-end BOOKMARK only when bookmarks are allowed', async () => {
    const q = 'watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan';
    const w = await s.watch(`${NS}?${q}&allowWatchBookmarks=true&timeoutSeconds=5`, { until: (lines) => lines.some((l) => l.includes('"BOOKMARK"')) });
    const events = w.lines.map((l) => JSON.parse(l) as { type: string; object: { kind: string; apiVersion: string; metadata: Record<string, unknown> } });
    const bookmark = events.at(-1);
    assert.ok(events.slice(0, -1).every((e) => e.type === 'ADDED'));
    assert.equal(bookmark?.type, 'BOOKMARK');
    assert.equal(bookmark?.object.kind, 'Flunder');
    assert.equal(bookmark?.object.apiVersion, 'wardle.example.com/v1alpha1');
    assert.deepEqual(bookmark?.object.metadata['annotations'], { 'k8s.io/initial-events-end': 'true' });
    const n = events.length - 1;
    const plain = await s.watch(`${NS}?${q}&timeoutSeconds=1`);
    assert.equal(plain.ended, true);
    assert.equal(plain.lines.length, n);
    assert.ok(plain.lines.every((l) => !l.includes('"BOOKMARK"')));
  });

  test('an expired resourceVersion: 200 then one ERROR event with the 410 Status', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'endpoints-expired-'));
    try {
      const first = await startServer({ dir });
      for (const n of ['e1', 'e2', 'e3']) await first.req('POST', `${V1ALPHA1}/namespaces/exp/flunders`, { body: flunderV1alpha1(n) });
      await first.close();
      // A new watch cache starts at the current revision: history before it is gone.
      const reopened = await startServer({ dir });
      try {
        const w = await reopened.watch(`${V1ALPHA1}/namespaces/exp/flunders?watch=true&resourceVersion=1&timeoutSeconds=5`);
        assert.equal(w.status, 200);
        assert.equal(w.ended, true);
        assert.equal(w.lines.length, 1);
        const ev = JSON.parse(w.lines[0] ?? '{}') as { type: string; object: Record<string, unknown> };
        assert.equal(ev.type, 'ERROR');
        assert.equal(ev.object['code'], 410);
        assert.equal(ev.object['reason'], 'Expired');
        assert.equal(ev.object['kind'], 'Status');
      } finally {
        await reopened.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
