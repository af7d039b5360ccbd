import type { RESTStrategy } from '../../../runtime/apimachinery/definition/strategy.js';
import type { SelectableFieldsStrategy } from '../../../runtime/registry/generic/predicate.js';
import { eventPrinterCellsV1 } from './table.js';
import type { Event } from './types.js';
import { validateEventCreate, validateEventUpdate } from './validation.js';

/**
 * kube's Event strategy as the events API sees it (pkg/registry/core/event, which
 * events.k8s.io's storage reuses): PUT creates and needs no resourceVersion, and validation is
 * the strict one of requests in events.k8s.io/v1. Names are DNS subdomains (ValidateObjectMeta
 * with NameIsDNSSubdomain, the store's default). The time to live is the core Events' storage's.
 * `source` selects as in core (events/v1's field label conversion keeps it): deprecatedSource's
 * component, else reportingController.
 */
export const EventStrategy = {
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  tablePrinter: { kind: 'handwritten', cells: eventPrinterCellsV1 },
  validate: (e: Event) => validateEventCreate(e),
  validateUpdate: (e: Event, old: Event) => validateEventUpdate(e, old),
  selectableFieldFuncs: { source: (e: Event) => firstNonEmpty(e.deprecatedSource?.component, e.reportingController) },
} satisfies RESTStrategy<Event> & SelectableFieldsStrategy<Event>;

const firstNonEmpty = (...values: Array<string | undefined>): string => values.find((v) => v !== undefined && v !== '') ?? '';
