import { humanAge } from '../../../runtime/endpoints/table/duration.js';
import { isZeroTime } from './event-validation.js';
import type { Event } from './types.js';

/**
 * The cells of kube's Event table (printers' printEvent, which the server runs wide): when it
 * was last and first seen (eventTime and series for Events of the new API), how often, the
 * object as `kind/name`, and the source as `component, host` (reportingComponent and
 * reportingInstance for Events of the new API).
 */
export const eventPrinterCells = {
  'Last Seen': (e: Event) => lastSeen(e, Date.now()),
  Object: (e: Event) => target(e),
  Subobject: (e: Event) => e.involvedObject?.fieldPath ?? '',
  Source: (e: Event) => source(e),
  Message: (e: Event) => (e.message ?? '').trim(),
  'First Seen': (e: Event) => firstSeen(e, Date.now()),
  Count: (e: Event) => count(e),
};

function firstSeen(e: Event, now: number): string {
  return isZeroTime(e.firstTimestamp) ? humanAge(e.eventTime, now) : humanAge(e.firstTimestamp, now);
}

function lastSeen(e: Event, now: number): string {
  if (e.series !== undefined && e.series !== null) return humanAge(e.series.lastObservedTime, now);
  return isZeroTime(e.lastTimestamp) ? firstSeen(e, now) : humanAge(e.lastTimestamp, now);
}

function count(e: Event): number {
  if (e.series !== undefined && e.series !== null) return e.series.count ?? 0;
  // Singleton Events of the new API have no count.
  return e.count === undefined || e.count === 0 ? 1 : e.count;
}

function target(e: Event): string {
  const kind = (e.involvedObject?.kind ?? '').toLowerCase();
  const name = e.involvedObject?.name ?? '';
  return name === '' ? kind : `${kind}/${name}`;
}

function source(e: Event): string {
  const component = firstNonEmpty(e.source?.component, e.reportingComponent);
  const instance = firstNonEmpty(e.source?.host, e.reportingInstance);
  return instance === '' ? component : `${component}, ${instance}`;
}

const firstNonEmpty = (...values: Array<string | undefined>): string => values.find((v) => v !== undefined && v !== '') ?? '';
