import { newBadRequest, newInvalid } from '../../apimachinery/errors/index.js';
import * as fields from '../../apimachinery/fields/index.js';
import type { FieldError } from '../../apimachinery/validation/field.js';
import { buildPredicate } from '../../registry/generic/index.js';
import type { InternalListOptions } from '../../registry/rest.js';
import type { ResourceDefinition } from '../../apimachinery/definition/resource.js';
import { queryBool, queryInt, queryString } from './queryparams.js';

/** ListOptions as sent (metainternalversion.ListOptions before the selectors are resolved). */
export interface RawListOptions {
  readonly labelSelector: string;
  readonly fieldSelector: string;
  readonly watch: boolean;
  readonly allowWatchBookmarks: boolean;
  readonly resourceVersion: string;
  readonly resourceVersionMatch: string;
  readonly timeoutSeconds: number | undefined;
  readonly limit: number;
  readonly continue: string;
  readonly sendInitialEvents: boolean | undefined;
}

/** Decodes the query (400 on malformed numbers); `watch` is the request's verb, not the parameter. */
export function decodeListOptions(query: URLSearchParams, watch: boolean): RawListOptions {
  return {
    labelSelector: queryString(query, 'labelSelector'),
    fieldSelector: queryString(query, 'fieldSelector'),
    watch,
    allowWatchBookmarks: queryBool(query, 'allowWatchBookmarks') ?? false,
    resourceVersion: queryString(query, 'resourceVersion'),
    resourceVersionMatch: queryString(query, 'resourceVersionMatch'),
    timeoutSeconds: queryInt(query, 'timeoutSeconds'),
    limit: queryInt(query, 'limit') ?? 0,
    continue: queryString(query, 'continue'),
    sendInitialEvents: queryBool(query, 'sendInitialEvents'),
  };
}

/**
 * SetListOptionsDefaults with the WatchList gate on (the 1.32 default): a watch from "" or "0"
 * that says nothing about initial events gets them as a watch-list.
 */
export function setListOptionsDefaults(o: RawListOptions): RawListOptions {
  if (!o.watch || o.sendInitialEvents !== undefined || o.resourceVersionMatch !== '') return o;
  if (o.resourceVersion !== '' && o.resourceVersion !== '0') return o;
  return { ...o, sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan' };
}

/** ValidateListOptions (WatchList enabled): 422 on ListOptions.meta.k8s.io. */
export function validateListOptions(o: RawListOptions): void {
  const errs = o.watch ? validateWatchOptions(o) : validateListOnlyOptions(o);
  if (errs.length > 0) throw newInvalid({ group: 'meta.k8s.io', kind: 'ListOptions' }, '', errs);
}

const forbidden = (field: string, detail: string): FieldError => ({ type: 'FieldValueForbidden', field, detail });
const notSupported = (field: string, value: string, supported: readonly string[]): FieldError => ({
  type: 'FieldValueNotSupported',
  field,
  badValue: value,
  detail: `supported values: ${supported.map((v) => JSON.stringify(v)).join(', ')}`,
});

function validateListOnlyOptions(o: RawListOptions): FieldError[] {
  const errs: FieldError[] = [];
  const match = o.resourceVersionMatch;
  if (match !== '') {
    if (o.resourceVersion === '') errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    if (o.continue !== '') errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    if (match !== 'Exact' && match !== 'NotOlderThan') errs.push(notSupported('resourceVersionMatch', match, ['Exact', 'NotOlderThan', '']));
    if (match === 'Exact' && o.resourceVersion === '0') errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
  }
  if (o.sendInitialEvents !== undefined) errs.push(forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  return errs;
}

function validateWatchOptions(o: RawListOptions): FieldError[] {
  const errs: FieldError[] = [];
  const match = o.resourceVersionMatch;
  if (o.sendInitialEvents !== undefined && match !== 'NotOlderThan') {
    errs.push(forbidden('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
  }
  if (match !== '') {
    if (o.sendInitialEvents === undefined) errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
    if (match !== 'NotOlderThan') errs.push(notSupported('resourceVersionMatch', match, ['NotOlderThan']));
    if (o.continue !== '') errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
  }
  return errs;
}

/**
 * The options the storage receives: selectors parsed (400 on parse errors and unsupported field
 * labels), and a request naming one object (`…/services/x` on a watch) pinned to it, where a
 * field selector naming another object is a 400.
 */
export function toInternalListOptions(o: RawListOptions, resource: ResourceDefinition, nameInPath: string): InternalListOptions {
  const predicate = buildPredicate(resource, o.labelSelector, o.fieldSelector);
  let field = predicate.field;
  if (nameInPath !== '') {
    if (!field.empty()) {
      if (field.requiresExactMatch('metadata.name') !== nameInPath) throw newBadRequest("fieldSelector metadata.name doesn't match requested name");
    } else {
      field = fields.oneTermEqualSelector('metadata.name', nameInPath);
    }
  }
  return {
    predicate: {
      ...predicate,
      field,
      ...(o.limit > 0 ? { limit: o.limit } : {}),
      ...(o.continue !== '' ? { continue: o.continue } : {}),
      ...(o.allowWatchBookmarks ? { allowWatchBookmarks: true } : {}),
    },
    resourceVersion: o.resourceVersion,
    resourceVersionMatch: o.resourceVersionMatch as InternalListOptions['resourceVersionMatch'],
    allowWatchBookmarks: o.allowWatchBookmarks,
    sendInitialEvents: o.sendInitialEvents,
    timeoutSeconds: o.timeoutSeconds ?? 0,
  };
}
