import { randomUUID } from 'node:crypto';
import { isDNS1123Subdomain } from '../../apimachinery/validation/names.js';

/** What the correlator reads time from: milliseconds since the epoch (k8s.io/utils/clock's PassiveClock). */
export interface PassiveClock {
  now(): number;
}

/** metav1.Time as JSON: RFC 3339 in UTC, whole seconds. */
export function formatTime(ms: number): string {
  return `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}

let lastUnixNano = 0n;

/**
 * The nanosecond timestamp event names carry. JavaScript clocks tick in milliseconds, so two
 * events about one object within a millisecond would share a name and the second would be
 * refused as AlreadyExists: the value only ever grows within the process, by one nanosecond when
 * the clock has not moved.
 */
export function uniqueUnixNano(ms: number): bigint {
  let nano = BigInt(Math.floor(ms)) * 1_000_000n;
  if (nano <= lastUnixNano) nano = lastUnixNano + 1n;
  lastUnixNano = nano;
  return nano;
}

/**
 * util.GenerateEventName: `<object name>.<unix nanoseconds in hex>`, or a random UUID when that
 * is no valid object name (an empty or over-long referenced name, kubernetes/kubernetes#127594).
 */
export function generateEventName(refName: string, unixNano: bigint): string {
  const name = `${refName}.${unixNano.toString(16)}`;
  return isDNS1123Subdomain(name).length > 0 ? randomUUID() : name;
}
