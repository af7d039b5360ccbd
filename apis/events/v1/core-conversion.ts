import type { Event as CoreEvent } from '../../core/v1/event.js';
import type { KubeObject } from '../../../runtime/registry/rest.js';
import type { StorageCodec } from '../../../runtime/registry/types.js';
import type { Event } from './types.js';

/**
 * kube's Convert_v1_Event_To_core_Event and back (pkg/apis/events/v1/conversion.go), between
 * events.k8s.io/v1 and core/v1 rather than through kube's internal type, which core/v1 mirrors:
 * regarding is involvedObject, note is message, reportingController is reportingComponent and
 * the deprecated fields are core's own. What Go writes for zero values is written too
 * (structs as `{}`, times as null, core's reporting fields as ""), so an Event reads the same
 * whichever group wrote it. Neither function mutates its input; outputs share nested values.
 */
export function eventToCore(e: Event): CoreEvent {
  const out: CoreEvent = { apiVersion: 'v1', kind: 'Event' };
  if (e.metadata !== undefined) out.metadata = e.metadata;
  out.involvedObject = e.regarding ?? {};
  copy(e, out, 'reason', 'reason');
  copy(e, out, 'note', 'message');
  out.source = e.deprecatedSource ?? {};
  out.firstTimestamp = e.deprecatedFirstTimestamp ?? null;
  out.lastTimestamp = e.deprecatedLastTimestamp ?? null;
  copy(e, out, 'deprecatedCount', 'count');
  copy(e, out, 'type', 'type');
  out.eventTime = e.eventTime ?? null;
  copy(e, out, 'series', 'series');
  copy(e, out, 'action', 'action');
  copy(e, out, 'related', 'related');
  out.reportingComponent = e.reportingController ?? '';
  out.reportingInstance = e.reportingInstance ?? '';
  return out;
}

export function eventFromCore(c: CoreEvent): Event {
  const out: Event = { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: c.metadata ?? {}, eventTime: c.eventTime ?? null };
  copy(c, out, 'series', 'series');
  nonEmpty(c, out, 'reportingComponent', 'reportingController');
  nonEmpty(c, out, 'reportingInstance', 'reportingInstance');
  nonEmpty(c, out, 'action', 'action');
  nonEmpty(c, out, 'reason', 'reason');
  out.regarding = c.involvedObject ?? {};
  copy(c, out, 'related', 'related');
  nonEmpty(c, out, 'message', 'note');
  nonEmpty(c, out, 'type', 'type');
  out.deprecatedSource = c.source ?? {};
  out.deprecatedFirstTimestamp = c.firstTimestamp ?? null;
  out.deprecatedLastTimestamp = c.lastTimestamp ?? null;
  if (c.count !== undefined && c.count !== 0) out.deprecatedCount = c.count;
  return out;
}

/** events.k8s.io/v1 Events stored as core/v1 Events (kube's cohabitating events resources). */
export const eventStorageCodec: StorageCodec = {
  toStorage: (obj: KubeObject) => eventToCore(obj as unknown as Event) as KubeObject,
  fromStorage: (stored: KubeObject) => eventFromCore(stored as CoreEvent) as unknown as KubeObject,
};

/** Copies a field that is present (null included: Go's nil). */
function copy<S extends object, T extends object>(from: S, to: T, src: keyof S & string, dst: keyof T & string): void {
  if (Object.hasOwn(from, src) && from[src] !== undefined) (to as Record<string, unknown>)[dst] = from[src];
}

/** Copies a string Go writes with omitempty: absent when empty. */
function nonEmpty<S extends object, T extends object>(from: S, to: T, src: keyof S & string, dst: keyof T & string): void {
  const v = Object.hasOwn(from, src) ? from[src] : undefined;
  if (v !== undefined && v !== null && v !== '') (to as Record<string, unknown>)[dst] = v;
}
