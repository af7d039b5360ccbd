import { normalizeMicroTimeField } from '../../../runtime/apimachinery/microtime.js';
import type { Event } from './types.js';

/** Not a default but kube's decoding of an Event: eventTime and the series' lastObservedTime as MicroTime writes them (UTC, six fraction digits). Mutates in place. */
export function setEventDefaults(obj: Event): void {
  normalizeMicroTimeField(obj, 'eventTime');
  normalizeMicroTimeField(obj.series, 'lastObservedTime');
}
