// events.k8s.io/v1 Event without a server: kube's pkg/apis/core/validation/events_test.go
// TestValidateEventCreateForNewV1Events and TestValidateEventUpdateForNewV1Events by name (the
// cases the strategy's validation owns; names are checked by the store), the conversions of
// pkg/apis/events/v1/conversion.go both ways (kube's TestEventConversion round trip), and kube's
// printEvent cells through the events API.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Event as CoreEvent } from '../../apis/core/v1/event.js';
import { eventFromCore, eventToCore } from '../../apis/events/v1/core-conversion.js';
import { EventStrategy } from '../../apis/events/v1/strategy.js';
import type { Event } from '../../apis/events/v1/types.js';
import { formatFieldError } from '../../runtime/apimachinery/validation/field.js';

const someTime = '2017-09-19T13:49:16.000000Z';
/** A core-shaped Event (kube's tests build core.Event), seen through events.k8s.io/v1. */
const viaV1 = (e: Omit<CoreEvent, 'apiVersion' | 'kind'>): Event => eventFromCore({ apiVersion: 'v1', kind: 'Event', ...e });
const create = (e: Event): string[] => EventStrategy.validate(e).map(formatFieldError);
const update = (e: Event, old: Event): string[] => EventStrategy.validateUpdate(e, old).map(formatFieldError);
const node = { apiVersion: 'v1', kind: 'Node' };
const valid = { eventTime: someTime, reportingComponent: 'k8s.io/my-controller', reportingInstance: 'node-xyz', action: 'Do', reason: 'Because', type: 'Normal' };

describe('events.k8s.io/v1 Event validation and conversion', () => {
  test('TestValidateEventCreateForNewV1Events', () => {
    const cases: Array<[string, Event, string[]]> = [
      ['valid new event', viaV1({ metadata: { name: 'test', namespace: 'kube-system' }, involvedObject: node, ...valid }), []],
      [
        'missing namespace in objectMeta',
        viaV1({ metadata: { name: 'test' }, involvedObject: node, ...valid }),
        [
          'involvedObject.namespace: Invalid value: "": does not match event.namespace',
          "namespace: Invalid value: \"\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        ],
      ],
      ['missing EventTime', viaV1({ metadata: { name: 'test', namespace: 'default' }, involvedObject: node }), ['eventTime: Required value', 'type: Invalid value: "": has invalid value: ']],
      ['missing reason', viaV1({ metadata: { name: 'test', namespace: 'kube-system' }, involvedObject: node, ...valid, reason: '' }), ['reason: Required value']],
      ['missing action', viaV1({ metadata: { name: 'test', namespace: 'kube-system' }, involvedObject: node, ...valid, action: '' }), ['action: Required value']],
      [
        'too long reporting instance',
        viaV1({ metadata: { name: 'test', namespace: 'kube-system' }, involvedObject: node, ...valid, reportingInstance: 'x'.repeat(129) }),
        ['reportingInstance: Invalid value: "": can have at most 128 characters'],
      ],
      [
        'invalid type',
        viaV1({ metadata: { name: 'test', namespace: 'kube-system' }, involvedObject: node, ...valid, type: 'invalid-type' }),
        ['type: Invalid value: "": has invalid value: invalid-type'],
      ],
      [
        'non-empty firstTimestamp',
        viaV1({ metadata: { name: 'test', namespace: 'kube-system' }, involvedObject: node, ...valid, firstTimestamp: '2017-09-19T13:49:16Z' }),
        ['firstTimestamp: Invalid value: "": needs to be unset'],
      ],
      [
        'non-empty lastTimestamp',
        viaV1({ metadata: { name: 'test', namespace: 'kube-system' }, involvedObject: node, ...valid, lastTimestamp: '2017-09-19T13:49:16Z' }),
        ['lastTimestamp: Invalid value: "": needs to be unset'],
      ],
      ['non-empty count', viaV1({ metadata: { name: 'test', namespace: 'kube-system' }, involvedObject: node, ...valid, count: 123 }), ['count: Invalid value: "": needs to be unset']],
      [
        'non-empty source',
        viaV1({ metadata: { name: 'test', namespace: 'kube-system' }, involvedObject: node, ...valid, source: { host: 'node-xyz' } }),
        ['source: Invalid value: "": needs to be unset'],
      ],
      [
        'invalid series',
        viaV1({ metadata: { name: 'test', namespace: 'kube-system' }, involvedObject: node, ...valid, series: { count: 1 } }),
        ['series.count: Invalid value: "": should be at least 2', 'series.lastObservedTime: Required value'],
      ],
    ];
    for (const [name, e, want] of cases) assert.deepEqual(create(e), want, name);
  });

  test("core's ObjectMeta rule on finalizer names, after the legacy checks (create and update)", () => {
    const event = viaV1({ metadata: { name: 'e', namespace: 'default', finalizers: ['mine', 'example.com/ok'] }, involvedObject: { ...node, name: 'n' }, ...valid });
    const msg = 'metadata.finalizers[0]: Invalid value: "mine": name is neither a standard finalizer name nor is it fully qualified';
    assert.deepEqual(create(event), [msg]);
    assert.deepEqual(update(event, { ...event, metadata: { name: 'e', namespace: 'default' } }), [msg]);
  });

  test('TestValidateEventUpdateForNewV1Events', () => {
    const old = viaV1({ metadata: { name: 'test', namespace: 'kube-system', resourceVersion: '2' }, involvedObject: node, ...valid, series: { count: 2, lastObservedTime: someTime } });
    assert.deepEqual(update(old, old), []);
    assert.deepEqual(update({ ...old, series: { count: 3, lastObservedTime: someTime } }, old), []);
    assert.deepEqual(update({ ...old, series: { count: 1, lastObservedTime: someTime } }, old), ['series.count: Invalid value: "": should be at least 2']);
    assert.deepEqual(update({ ...old, eventTime: '2018-09-19T13:49:16.000000Z' }, old), ['eventTime: Invalid value: "2018-09-19T13:49:16.000000Z": field is immutable']);
    assert.deepEqual(update({ ...old, reportingController: 'k8s.io/other' }, old), ['reportingController: Invalid value: "k8s.io/other": field is immutable']);
    assert.deepEqual(update({ ...old, type: 'Warning' }, old), ['type: Invalid value: "Warning": field is immutable']);
    // kube checks reason twice: two causes, one message once aggregated.
    assert.deepEqual(update({ ...old, reason: 'Other' }, old), ['reason: Invalid value: "Other": field is immutable', 'reason: Invalid value: "Other": field is immutable']);
  });

  test("kube's conversions: regarding/involvedObject, note/message, reportingController/reportingComponent, the deprecated fields; Go's zero values written", () => {
    const v1: Event = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'e', namespace: 'ns' },
      eventTime: someTime,
      series: { count: 2, lastObservedTime: someTime },
      reportingController: 'k8s.io/c',
      reportingInstance: 'c-1',
      action: 'Do',
      reason: 'Because',
      regarding: { kind: 'Pod', name: 'p', namespace: 'ns' },
      related: { kind: 'Node', name: 'n' },
      note: 'hello',
      type: 'Normal',
      deprecatedSource: { component: 'old', host: 'h' },
      deprecatedFirstTimestamp: '2017-09-19T13:49:16Z',
      deprecatedLastTimestamp: '2017-09-19T13:50:16Z',
      deprecatedCount: 3,
    };
    const core = eventToCore(v1);
    assert.deepEqual(core, {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'e', namespace: 'ns' },
      involvedObject: { kind: 'Pod', name: 'p', namespace: 'ns' },
      reason: 'Because',
      message: 'hello',
      source: { component: 'old', host: 'h' },
      firstTimestamp: '2017-09-19T13:49:16Z',
      lastTimestamp: '2017-09-19T13:50:16Z',
      count: 3,
      type: 'Normal',
      eventTime: someTime,
      series: { count: 2, lastObservedTime: someTime },
      action: 'Do',
      related: { kind: 'Node', name: 'n' },
      reportingComponent: 'k8s.io/c',
      reportingInstance: 'c-1',
    });
    assert.deepEqual(eventFromCore(core), v1);
    // What Go writes for an empty Event in either API.
    assert.deepEqual(eventFromCore({ apiVersion: 'v1', kind: 'Event', metadata: { name: 'z' } }), {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'z' },
      eventTime: null,
      regarding: {},
      deprecatedSource: {},
      deprecatedFirstTimestamp: null,
      deprecatedLastTimestamp: null,
    });
    assert.deepEqual(eventToCore({ apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'z' }, eventTime: null }), {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'z' },
      involvedObject: {},
      source: {},
      firstTimestamp: null,
      lastTimestamp: null,
      eventTime: null,
      reportingComponent: '',
      reportingInstance: '',
    });
  });

  test("kube's printEvent cells from the events API's objects; source selects as in core", () => {
    const e = viaV1({ metadata: { name: 'x', namespace: 'ns' }, involvedObject: { kind: 'Pod', name: 'p', fieldPath: 'spec' }, ...valid, reportingInstance: 'i-1', message: ' hi ' });
    const cells = EventStrategy.tablePrinter.cells;
    assert.equal(cells.Object(e), 'pod/p');
    assert.equal(cells.Subobject(e), 'spec');
    assert.equal(cells.Source(e), 'k8s.io/my-controller, i-1');
    assert.equal(cells.Message(e), 'hi');
    assert.equal(cells.Count(e), 1);
    assert.equal(EventStrategy.selectableFieldFuncs.source(e), 'k8s.io/my-controller');
    assert.equal(EventStrategy.selectableFieldFuncs.source({ ...e, deprecatedSource: { component: 'kubelet' } }), 'kubelet');
  });
});
