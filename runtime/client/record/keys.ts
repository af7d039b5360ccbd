import type { Event } from './types.js';

/**
 * kube's keys over an event (tools/record/events_cache.go). Fields are concatenated without a
 * separator, exactly as client-go joins them, so keys compare equal where client-go's do.
 */

/** getEventKey: one event, up to its message; the eventLogger counts repeats of it. */
export function getEventKey(event: Event): string {
  const o = event.involvedObject ?? {};
  return [event.source?.component, event.source?.host, o.kind, o.namespace, o.name, o.fieldPath, o.uid, o.apiVersion, event.type, event.reason, event.message].join('');
}

/** getSpamKey: source and object (without the field path) and type; the spam filter's bucket. */
export function getSpamKey(event: Event): string {
  const o = event.involvedObject ?? {};
  return [event.source?.component, event.source?.host, o.kind, o.namespace, o.name, o.uid, o.apiVersion, event.type].join('');
}

/** Groups events for aggregation: `aggregateKey` names the group, `localKey` an event within it. */
export type EventAggregatorKeyFunc = (event: Event) => { readonly aggregateKey: string; readonly localKey: string };

/** The message of an aggregate event. */
export type EventAggregatorMessageFunc = (event: Event) => string;

/** The spam filter's key for an event. */
export type EventSpamKeyFunc = (event: Event) => string;

/** EventAggregatorByReasonFunc: events that differ only in their message fold into one group. */
export const eventAggregatorByReasonFunc: EventAggregatorKeyFunc = (event) => {
  const o = event.involvedObject ?? {};
  const aggregateKey = [
    event.source?.component,
    event.source?.host,
    o.kind,
    o.namespace,
    o.name,
    o.uid,
    o.apiVersion,
    event.type,
    event.reason,
    event.reportingComponent,
    event.reportingInstance,
  ].join('');
  return { aggregateKey, localKey: event.message ?? '' };
};

/** EventAggregatorByReasonMessageFunc. */
export const eventAggregatorByReasonMessageFunc: EventAggregatorMessageFunc = (event) => `(combined from similar events): ${event.message ?? ''}`;
