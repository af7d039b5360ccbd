// core/v1 Event: kube's pkg/apis/core/validation/events_test.go TestValidateEventForCoreV1Events
// (core/v1 requests get legacyValidateEvent only), the Event strategy (PUT creates, path-segment
// names) and its selectable fields through the generic store on SQLite, the TTL the store gives
// every write (registry/core/event's TTLFunc, read back from the storage), kube's printEvent
// cells, and the protobuf field numbers of k8s.io/api/core/v1 Event.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { coreGroup } from '../../generated/registry/core.js';
import { metaV1Protobuf } from '../../generated/protobuf/meta/v1.js';
import { coreV1Protobuf } from '../../generated/protobuf/core/v1.js';
import { setEventDefaults } from '../../apis/core/v1/defaults.js';
import { EventStrategy } from '../../apis/core/v1/strategy.js';
import type { Event } from '../../apis/core/v1/types.js';
import { decodeProtobufObject, encodeProtobufObject, ProtobufScheme } from '../../runtime/apimachinery/serializer/protobuf/index.js';
import { formatFieldError } from '../../runtime/apimachinery/validation/field.js';
import { newTableConvertor, type TableSource } from '../../runtime/endpoints/table/convertor.js';
import { tablePrinterOf } from '../../runtime/endpoints/table/printer.js';
import { createResourceStorage, storagePrefix } from '../../runtime/registry/generic/index.js';
import type { KubeObject } from '../../runtime/registry/rest.js';
import { completeOptions, parseServerRunOptions } from '../../runtime/controlplane/options.js';
import { allow, allowBoth, ctx, listOpts, newEnv, put, write, type Env } from '../registry/helpers.js';

const event = (name: string, namespace: string, e: Omit<Event, 'metadata'> = {}): Event => ({ metadata: { name, namespace }, ...e });
const asObject = (e: Event): KubeObject => ({ apiVersion: 'v1', kind: 'Event', ...e }) as KubeObject;
const errors = (e: Event) => EventStrategy.validate(e).map(formatFieldError);

describe('core/v1 Event', () => {
  let env: Env;
  before(async () => {
    env = await newEnv();
  });
  after(async () => {
    await env.close();
  });

  test('TestValidateEventForCoreV1Events', () => {
    const now = '2024-05-01T10:00:00.000000Z';
    const reporting = { eventTime: now, reportingComponent: 'k8s.io/my-controller', reportingInstance: 'node-xyz', action: 'Do', reason: 'Because' };
    const cases: Array<[string, Event, boolean]> = [
      ['namespaces differ', event('test1', 'foo', { involvedObject: { namespace: 'bar', kind: 'Pod' } }), false],
      ['invalid namespace', event('test2', 'aoeu-_-aoeu', { involvedObject: { namespace: 'aoeu-_-aoeu', kind: 'Pod' } }), false],
      ['cluster-scoped object in default', event('test3', 'default', { involvedObject: { apiVersion: 'v1', kind: 'Node' } }), true],
      ['namespace object in default', event('test4', 'default', { involvedObject: { apiVersion: 'v1', kind: 'Namespace' } }), true],
      ['any kind in default', event('test5', 'default', { involvedObject: { apiVersion: 'networking.k8s.io/v1', kind: 'NoKind', namespace: 'default' } }), true],
      ['any kind in its namespace', event('test6', 'foo', { involvedObject: { apiVersion: 'networking.k8s.io/v1', kind: 'NoKind', namespace: 'foo' } }), true],
      ['a group without version', event('test7', 'foo', { involvedObject: { apiVersion: 'networking.k8s.io', kind: 'NoKind', namespace: 'foo' } }), true],
      ['an old group version', event('test9', 'foo', { involvedObject: { apiVersion: 'extensions/v1beta1', kind: 'Job', namespace: 'foo' } }), true],
      ['cluster-scoped object in another namespace', event('test10', 'foo', { involvedObject: { apiVersion: 'v1', kind: 'Node' } }), false],
      ['eventTime with the reporting fields', event('test11', 'default', { involvedObject: { kind: 'Node' }, ...reporting }), true],
      ['eventTime, cluster-scoped object in kube-system', event('test12', 'kube-system', { involvedObject: { kind: 'Node' }, ...reporting }), true],
      ['eventTime, cluster-scoped object in another namespace', event('test13', 'foo', { involvedObject: { kind: 'Node' }, ...reporting }), false],
      ['eventTime without reportingController', event('test14', 'default', { involvedObject: { kind: 'Node' }, ...reporting, reportingComponent: '' }), false],
      ['eventTime with an unqualified reportingController', event('test15', 'default', { involvedObject: { kind: 'Node' }, ...reporting, reportingComponent: 'Bad Name' }), false],
    ];
    for (const [name, e, valid] of cases) assert.equal(errors(e).length === 0, valid, `${name}: ${errors(e).join('; ')}`);
    assert.deepEqual(errors(cases[0]![1]), ['involvedObject.namespace: Invalid value: "bar": does not match event.namespace']);
    assert.deepEqual(errors(event('x', 'default', { involvedObject: { kind: 'Node' }, eventTime: now })), [
      'reportingController: Required value',
      'reportingController: Invalid value: "": name part must be non-empty',
      "reportingController: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      'reportingInstance: Required value',
      'action: Required value',
      'reason: Required value',
    ]);
    assert.deepEqual(errors(event('x', 'default', { involvedObject: { kind: 'Node' }, ...reporting, action: 'a'.repeat(129), message: 'm'.repeat(1025) })), [
      'action: Invalid value: "": can have at most 128 characters',
      'message: Invalid value: "": can have at most 1024 characters',
    ]);
  });

  test('the store: PUT creates, names are path segments (not DNS names), and the declared fields select', async () => {
    const { main } = await env.storages(coreGroup, 'Event');
    const made = await main.update(
      ctx('ns'),
      'Pod_X.1',
      put(asObject(event('Pod_X.1', 'ns', { involvedObject: { kind: 'Pod', name: 'x', namespace: 'ns', uid: 'u1' }, reason: 'Started', type: 'Normal' }))),
      allowBoth,
      {
        ...write,
        forceAllowCreate: false,
      },
    );
    assert.equal(made.created, true);
    await main.create(
      ctx('ns'),
      asObject(event('cm.1', 'ns', { involvedObject: { kind: 'ConfigMap', name: 'x', namespace: 'ns' }, reason: 'Changed', type: 'Warning', reportingComponent: 'me' })),
      allow,
      write,
    );
    await assert.rejects(main.create(ctx('ns'), asObject(event('a/b', 'ns')), allow, write), /metadata.name: Invalid value: "a\/b": may not contain '\/'/);
    const names = async (field: string) => (await main.list(ctx('ns'), listOpts({ field }))).items.map((i) => i.metadata?.name);
    assert.deepEqual(await names('involvedObject.kind=ConfigMap,involvedObject.name=x'), ['cm.1']);
    assert.deepEqual(await names('involvedObject.uid=u1'), ['Pod_X.1']);
    assert.deepEqual(await names('type=Warning'), ['cm.1']);
    assert.deepEqual(await names('reason=Started'), ['Pod_X.1']);
    assert.deepEqual(await names('reportingComponent=me'), ['cm.1']);
  });

  test('TTLFunc: every create and update of a store with a TTL gives the key that time to live', async () => {
    const storage = await env.raw('', 'events');
    const seen: Array<[number, boolean]> = [];
    const { main } = createResourceStorage({
      group: coreGroup,
      kind: 'Event',
      storage,
      ttl: (_obj, existing, update) => {
        seen.push([existing, update]);
        return 3600;
      },
    });
    const created = await main.create(ctx('ttl'), asObject(event('e1', 'ttl', { involvedObject: { kind: 'Pod', namespace: 'ttl' } })), allow, write);
    await main.update(ctx('ttl'), 'e1', put({ ...created, count: 2 }), allowBoth, { ...write, forceAllowCreate: false });
    // The update sees the key's remaining TTL, or 0 when it starts from the watch cache's copy (as kube's does).
    assert.deepEqual(
      seen.map(([existing, update]) => [existing === 0 || (existing > 3500 && existing <= 3600), update]),
      [
        [true, false],
        [true, true],
      ],
    );
    // Read without the watch cache, whose copies carry no TTL.
    const direct = await env.factory.forResource({ resourcePrefix: storagePrefix('', 'events'), watchCache: false });
    const meta: number[] = [];
    await direct.guaranteedUpdate('/events/ttl/e1', {
      tryUpdate: (o, res) => {
        meta.push(res.ttl);
        return { object: o! };
      },
    });
    assert.ok(meta[0]! > 3500 && meta[0]! <= 3600, `the stored key lives about an hour: ${meta[0]}`);
  });

  test("--event-ttl: kube's flag, a Go duration, default one hour, whole seconds", () => {
    const ttl = (...argv: string[]) => completeOptions(parseServerRunOptions(argv), () => {}).eventTTLSeconds;
    assert.equal(ttl(), 3600);
    assert.equal(ttl('--event-ttl', '2s'), 2);
    assert.equal(ttl('--event-ttl=1m30.5s'), 90);
    assert.equal(ttl('--event-ttl=0s'), 0, 'no TTL: Events are kept');
    assert.throws(() => ttl('--event-ttl', 'soon'), /--event-ttl/);
  });

  test('MicroTime fields are written as kube writes them', () => {
    const e: Event = event('e', 'ns', { eventTime: '2024-05-01T10:00:00Z', series: { count: 2, lastObservedTime: '2024-05-01T12:00:00.5+02:00' } });
    setEventDefaults(e);
    assert.equal(e.eventTime, '2024-05-01T10:00:00.000000Z');
    assert.equal(e.series?.lastObservedTime, '2024-05-01T10:00:00.500000Z');
  });

  test("kube's table (printEvent, wide): LAST SEEN, TYPE, REASON, OBJECT, MESSAGE, and Name last and wide only; shortName ev", () => {
    const resource = coreGroup.versions[0]!.resources.find((r) => r.kind === 'Event')!;
    assert.deepEqual(resource.shortNames, ['ev']);
    const convertor = newTableConvertor(resource.printerColumns, Date.now, tablePrinterOf(resource));
    const ago = (s: number) => new Date(Date.now() - s * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
    const old: Event = event('a', 'ns', {
      involvedObject: { kind: 'ConfigMap', name: 'x', fieldPath: 'data' },
      reason: 'Changed',
      type: 'Normal',
      message: ' changed \n',
      source: { component: 'me', host: 'h' },
      firstTimestamp: ago(300),
      lastTimestamp: ago(30),
      count: 4,
    });
    const fresh: Event = event('b', 'ns', {
      involvedObject: { kind: 'Node' },
      type: 'Warning',
      reason: 'R',
      eventTime: ago(60).replace('Z', '.000000Z'),
      reportingComponent: 'ctl',
      reportingInstance: 'i',
    });
    const table = convertor.convertToTable({ items: [old, fresh] } as TableSource, { noHeaders: false, isList: true });
    assert.deepEqual(
      table.columnDefinitions?.map((c) => [c.name, c.priority]),
      [
        ['Last Seen', 0],
        ['Type', 0],
        ['Reason', 0],
        ['Object', 0],
        ['Subobject', 1],
        ['Source', 1],
        ['Message', 0],
        ['First Seen', 1],
        ['Count', 1],
        ['Name', 1],
      ],
    );
    assert.equal(table.columnDefinitions?.at(-1)?.format, 'name');
    assert.deepEqual(table.rows[0]?.cells, ['30s', 'Normal', 'Changed', 'configmap/x', 'data', 'me, h', 'changed', '5m', 4, 'a']);
    assert.deepEqual(table.rows[1]?.cells, ['60s', 'Warning', 'R', 'node', '', 'ctl, i', '', '60s', 1, 'b']);
  });

  test("protobuf: k8s.io/api/core/v1 Event's field numbers", () => {
    const scheme = new ProtobufScheme([metaV1Protobuf, coreV1Protobuf]);
    const e = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'e', namespace: 'ns' },
      involvedObject: { kind: 'Pod', name: 'p' },
      reason: 'R',
      message: 'M',
      source: { component: 'c', host: 'h' },
      count: 3,
      type: 'Normal',
      series: { count: 2, lastObservedTime: '2024-05-01T10:00:00.000001Z' },
      action: 'A',
      related: { kind: 'Node', name: 'n' },
      reportingComponent: 'rc',
      reportingInstance: 'ri',
    };
    const bytes = Buffer.from(encodeProtobufObject(e, scheme));
    const field = (n: number, s: string) => Buffer.from([(n << 3) | 2, s.length, ...Buffer.from(s)]);
    for (const [n, s] of [
      [3, 'R'],
      [4, 'M'],
      [9, 'Normal'],
      [12, 'A'],
      [14, 'rc'],
      [15, 'ri'],
    ] as const) {
      assert.ok(bytes.includes(field(n, s)), `field ${n}`);
    }
    assert.ok(bytes.includes(Buffer.from([0x2a, 0x06, ...field(1, 'c'), ...field(2, 'h')])), 'source = 5 {component = 1, host = 2}');
    assert.ok(bytes.includes(Buffer.from([0x40, 0x03])), 'count = 8');
    const decoded = decodeProtobufObject(bytes, { into: { apiVersion: 'v1', kind: 'Event' }, scheme });
    assert.deepEqual(
      { ...decoded, metadata: undefined, firstTimestamp: undefined, lastTimestamp: undefined, eventTime: undefined },
      { ...e, apiVersion: 'v1', kind: 'Event', metadata: undefined, firstTimestamp: undefined, lastTimestamp: undefined, eventTime: undefined, involvedObject: decoded['involvedObject'] },
    );
    assert.equal(decoded['firstTimestamp'], null, 'a zero metav1.Time is null, as Go marshals it');
  });
});
