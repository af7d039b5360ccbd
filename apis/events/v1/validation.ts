import { isDeepStrictEqual } from 'node:util';
import type { FieldError } from '../../../runtime/apimachinery/validation/field.js';
import type { Event as CoreEvent } from '../../core/v1/event.js';
import { isZeroTime, legacyValidateEvent } from '../../core/v1/event-validation.js';
import { eventToCore } from './core-conversion.js';
import type { Event } from './types.js';
import { validateKubeFinalizerNames } from '../../core/v1/objectmeta-validation.js';

/** The Event types kube accepts from the events API (v1.EventTypeNormal, v1.EventTypeWarning). */
const EVENT_TYPES: readonly string[] = ['Normal', 'Warning'];

/**
 * kube's ValidateEventCreate for requests in events.k8s.io/v1 (pkg/apis/core/validation/events.go):
 * the legacy checks every Event passes, then the strict ones of the events API. kube validates
 * its internal Event, so the fields are named as core/v1 names them (`involvedObject.namespace`,
 * `firstTimestamp`), whichever API the request used. The name (a DNS subdomain here, where core
 * Events take any path segment) is checked by the store with the rest of the metadata.
 */
export function validateEventCreate(event: Event): FieldError[] {
  const e = eventToCore(event);
  const errs = legacyValidateEvent(e);
  // Then core's ValidateObjectMeta, whose finalizer-name rule is the part the generic store leaves.
  errs.push(...validateKubeFinalizerNames(event.metadata));
  errs.push(...validateSeries(e));
  if (isZeroTime(e.eventTime)) errs.push({ type: 'FieldValueRequired', field: 'eventTime', detail: '' });
  if (!EVENT_TYPES.includes(e.type ?? '')) errs.push(invalid('type', `has invalid value: ${e.type ?? ''}`));
  if (!isZeroTime(e.firstTimestamp)) errs.push(invalid('firstTimestamp', 'needs to be unset'));
  if (!isZeroTime(e.lastTimestamp)) errs.push(invalid('lastTimestamp', 'needs to be unset'));
  if ((e.count ?? 0) !== 0) errs.push(invalid('count', 'needs to be unset'));
  if ((e.source?.component ?? '') !== '' || (e.source?.host ?? '') !== '') errs.push(invalid('source', 'needs to be unset'));
  return errs;
}

/**
 * kube's ValidateEventUpdate for requests in events.k8s.io/v1: the legacy checks, a changed series
 * validated again, and every field of the Event immutable (reason checked twice, as kube does).
 */
export function validateEventUpdate(event: Event, old: Event): FieldError[] {
  const e = eventToCore(event);
  const o = eventToCore(old);
  const errs = legacyValidateEvent(e);
  errs.push(...validateKubeFinalizerNames(event.metadata));
  if (!isDeepStrictEqual(e.series ?? null, o.series ?? null)) errs.push(...validateSeries(e));
  const immutable: ReadonlyArray<keyof CoreEvent & string> = [
    'involvedObject',
    'reason',
    'message',
    'source',
    'firstTimestamp',
    'lastTimestamp',
    'count',
    'reason',
    'type',
    'eventTime',
    'action',
    'related',
    'reportingComponent',
    'reportingInstance',
  ];
  for (const f of immutable) {
    if (!isDeepStrictEqual(goValue(e, f), goValue(o, f))) {
      errs.push({ type: 'FieldValueInvalid', field: f === 'reportingComponent' ? 'reportingController' : f, badValue: goValue(e, f), detail: 'field is immutable' });
    }
  }
  return errs;
}

/** validateV1EventSeries: a series counts at least two occurrences and says when it saw the last. */
function validateSeries(e: CoreEvent): FieldError[] {
  if (e.series === undefined || e.series === null) return [];
  const errs: FieldError[] = [];
  if ((e.series.count ?? 0) < 2) errs.push(invalid('series.count', 'should be at least 2'));
  if (isZeroTime(e.series.lastObservedTime)) errs.push({ type: 'FieldValueRequired', field: 'series.lastObservedTime', detail: '' });
  return errs;
}

// kube reports these with an empty value.
const invalid = (field: string, detail: string): FieldError => ({ type: 'FieldValueInvalid', field, badValue: '', detail });

/** A field as Go compares it: absent scalars are their zero values, absent times and pointers nil. */
function goValue(e: CoreEvent, f: keyof CoreEvent & string): unknown {
  const v = e[f];
  if (v !== undefined && v !== null && v !== '') return v;
  if (f === 'count') return 0;
  if (f === 'involvedObject' || f === 'source') return {};
  if (f === 'reason' || f === 'message' || f === 'type' || f === 'action' || f === 'reportingComponent' || f === 'reportingInstance') return '';
  return null;
}
