import type { RESTStrategy } from '../../../runtime/apimachinery/definition/strategy.js';
import type { SelectableFieldsStrategy } from '../../../runtime/registry/generic/predicate.js';
import { validatePathSegmentName } from '../../../runtime/apimachinery/validation/names.js';
import { eventPrinterCells } from './event-table.js';
import { legacyValidateEvent } from './event-validation.js';
import type { Event } from './types.js';

/**
 * kube's Event strategy (pkg/registry/core/event): PUT creates and needs no resourceVersion,
 * names are only path segments (core/v1 Events skip ValidateObjectMeta's DNS names), and
 * core/v1's validation is the legacy one. The time to live is the storage's (--event-ttl). Besides
 * its declared fields an Event is selected on `source`: source.component, else the reporting
 * controller (ToSelectableFields).
 */
export const EventStrategy = {
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  validateName: (name: string) => validatePathSegmentName(name, false),
  tablePrinter: { kind: 'handwritten', cells: eventPrinterCells },
  validate: (e: Event) => legacyValidateEvent(e),
  validateUpdate: (e: Event) => legacyValidateEvent(e),
  selectableFieldFuncs: { source: (e: Event) => firstNonEmpty(e.source?.component, e.reportingComponent) },
} satisfies RESTStrategy<Event> & SelectableFieldsStrategy<Event>;

const firstNonEmpty = (...values: Array<string | undefined>): string => values.find((v) => v !== undefined && v !== '') ?? '';
