import type { ManagedFieldsEntry } from '../../../apis/meta/v1/types.js';
import { VersionedSet } from '../structuredmerge/fieldpath/index.js';
import type { ManagedFields } from '../structuredmerge/fieldpath/index.js';
import type { JSONObject } from '../serializer/jsonvalue.js';
import { isJSONObject, ownField, setField } from '../serializer/jsonvalue.js';
import { goQuote } from '../structuredmerge/value/tostring.js';
import type { Managed } from './manager.js';
import { fieldsToSet, setToFields } from './fields.js';

/** A Managed over the given maps (NewManaged). The maps are the caller's: layers copy before changing. */
export function newManaged(fields: ManagedFields, times: Map<string, string>): Managed {
  return { fields: () => fields, times: () => times };
}

/** A Managed with no manager (NewEmptyManaged). */
export function newEmptyManaged(): Managed {
  return newManaged(new Map(), new Map());
}

/** A copy whose maps may be changed without touching `m` (the sets themselves are immutable). */
export function copyManaged(m: Managed): Managed {
  return newManaged(new Map(m.fields()), new Map(m.times()));
}

/** metav1.Time's JSON: RFC 3339 in UTC, whole seconds. */
export function formatManagedTime(d: Date): string {
  const ms = d.getTime();
  // Every write in the same second stamps the same text: format it once (the text depends
  // on the second alone; an invalid date still throws below, as toISOString does).
  const second = Math.floor(ms / 1000);
  if (second === lastFormatted.second) return lastFormatted.text;
  const text = d.toISOString().replace(/\.\d+Z$/, 'Z');
  lastFormatted = { second, text };
  return text;
}

let lastFormatted = { second: NaN, text: '' };

/** `obj` without metadata.managedFields (RemoveObjectManagedFields); `obj` is not changed. */
export function removeObjectManagedFields(obj: JSONObject): JSONObject {
  const meta = ownField(obj, 'metadata');
  if (!isJSONObject(meta) || ownField(meta, 'managedFields') === undefined) return obj;
  const { managedFields: _dropped, ...rest } = meta;
  return withMetadata(obj, rest);
}

/** `obj` with `managed` encoded as its metadata.managedFields, absent when nobody manages anything. */
export function encodeObjectManagedFields(obj: JSONObject, managed: Managed): JSONObject {
  const encoded = encodeManagedFields(managed);
  const meta = ownField(obj, 'metadata');
  const base: JSONObject = isJSONObject(meta) ? { ...meta } : {};
  delete base.managedFields;
  if (encoded.length > 0) base.managedFields = encoded;
  return withMetadata(obj, base);
}

function withMetadata(obj: JSONObject, meta: JSONObject): JSONObject {
  const out: JSONObject = {};
  for (const [k, v] of Object.entries(obj)) setField(out, k, k === 'metadata' ? meta : v);
  if (ownField(obj, 'metadata') === undefined) out.metadata = meta;
  return out;
}

/**
 * Decodes an object's managedFields list (DecodeManagedFields). Absent means none; an entry
 * with a bad operation, apiVersion, fieldsType or field set fails with kube's wording.
 */
export function decodeManagedFields(encoded: unknown): Managed {
  const managed = newEmptyManaged();
  if (encoded === undefined || encoded === null) return managed;
  if (!Array.isArray(encoded)) throw new Error('managedFields must be a list of entries');
  encoded.forEach((raw: unknown, i) => {
    if (!isJSONObject(raw)) throw new Error(`managed fields entry ${i} must be an object`);
    const entry = raw as ManagedFieldsEntry;
    const operation = ownField(raw, 'operation');
    if (operation !== 'Apply' && operation !== 'Update') throw new Error('operation must be `Apply` or `Update`');
    const apiVersion = ownField(raw, 'apiVersion');
    if (typeof apiVersion !== 'string' || apiVersion.length < 1) throw new Error('apiVersion must not be empty');
    const fieldsType = ownField(raw, 'fieldsType');
    if (fieldsType === undefined || fieldsType === '') throw new Error(`missing fieldsType in managed fields entry ${i}`);
    if (fieldsType !== 'FieldsV1') throw new Error(`invalid fieldsType ${goQuote(String(fieldsType))} in managed fields entry ${i}`);
    const manager = buildManagerIdentifier(entry);
    let set;
    try {
      set = fieldsToSet(ownField(raw, 'fieldsV1') ?? {});
    } catch (err) {
      throw new Error(`error decoding versioned set from ${goEntryString(raw)}: error decoding set: ${message(err)}`, { cause: err });
    }
    managed.fields().set(manager, new VersionedSet(set, apiVersion, operation === 'Apply'));
    const time = ownField(raw, 'time');
    if (typeof time === 'string') managed.times().set(manager, time);
    else managed.times().delete(manager);
  });
  return managed;
}

/**
 * The key of a manager in a Managed (BuildManagerIdentifier): the entry's JSON without
 * fieldsType, fieldsV1 and time, and without apiVersion for Apply (an applier owns its fields
 * whatever version it applied in). Fields in Go's order, empty ones left out, Go's escaping.
 */
export function buildManagerIdentifier(entry: ManagedFieldsEntry): string {
  const parts: string[] = [];
  const add = (name: string, v: unknown): void => {
    if (typeof v === 'string' && v !== '') parts.push(`${goJSONString(name)}:${goJSONString(v)}`);
  };
  const e = entry as JSONObject;
  add('manager', ownField(e, 'manager'));
  add('operation', ownField(e, 'operation'));
  if (ownField(e, 'operation') !== 'Apply') add('apiVersion', ownField(e, 'apiVersion'));
  add('subresource', ownField(e, 'subresource'));
  return `{${parts.join(',')}}`;
}

/** The entry a manager key names (the inverse of buildManagerIdentifier); throws on a key that is not JSON. */
export function parseManagerIdentifier(manager: string): ManagedFieldsEntry {
  const parsed: unknown = JSON.parse(manager);
  if (!isJSONObject(parsed)) throw new Error(`manager identifier ${manager} is not an object`);
  const entry: ManagedFieldsEntry = {};
  const str = (k: string): string | undefined => {
    const v = ownField(parsed, k);
    return typeof v === 'string' && v !== '' ? v : undefined;
  };
  const m = str('manager');
  const op = str('operation');
  const av = str('apiVersion');
  const t = str('time');
  const sub = str('subresource');
  if (m !== undefined) entry.manager = m;
  if (op === 'Apply' || op === 'Update') entry.operation = op;
  if (av !== undefined) entry.apiVersion = av;
  if (t !== undefined) entry.time = t;
  if (sub !== undefined) entry.subresource = sub;
  return entry;
}

/** The managedFields list of `managed`, sorted as kube stores it; empty when nobody manages anything. */
export function encodeManagedFields(managed: Managed): ManagedFieldsEntry[] {
  const out: ManagedFieldsEntry[] = [];
  for (const [manager, vs] of managed.fields()) {
    let base: ManagedFieldsEntry;
    try {
      base = parseManagerIdentifier(manager);
    } catch (err) {
      throw new Error(`error encoding versioned set for ${manager}: error unmarshalling manager identifier ${manager}: ${message(err)}`, {
        cause: err,
      });
    }
    const time = managed.times().get(manager);
    // Go's field order: manager, operation, apiVersion, time, fieldsType, fieldsV1, subresource.
    const entry: ManagedFieldsEntry = {};
    if (base.manager !== undefined) entry.manager = base.manager;
    const operation = vs.applied ? 'Apply' : base.operation;
    if (operation !== undefined) entry.operation = operation;
    if (vs.apiVersion !== '') entry.apiVersion = vs.apiVersion;
    if (time !== undefined) entry.time = normalizeTime(time);
    entry.fieldsType = 'FieldsV1';
    entry.fieldsV1 = setToFields(vs.set);
    if (base.subresource !== undefined) entry.subresource = base.subresource;
    out.push(entry);
  }
  return sortEncodedManagedFields(out);
}

/**
 * kube's order of managedFields entries (sortEncodedManagedFields): by operation (Apply before
 * Update), then time (oldest first, no time as the epoch), manager, apiVersion, subresource.
 */
export function sortEncodedManagedFields(entries: ManagedFieldsEntry[]): ManagedFieldsEntry[] {
  return entries.sort((p, q) => {
    const byOp = compareStrings(p.operation ?? '', q.operation ?? '');
    if (byOp !== 0) return byOp;
    const pt = unixSeconds(p.time);
    const qt = unixSeconds(q.time);
    if (pt !== qt) return pt < qt ? -1 : 1;
    return compareStrings(p.manager ?? '', q.manager ?? '') || compareStrings(p.apiVersion ?? '', q.apiVersion ?? '') || compareStrings(p.subresource ?? '', q.subresource ?? '');
  });
}

/** Seconds since the epoch of a metav1.Time string; 0 when absent or not a time. */
export function unixSeconds(t: string | undefined | null): number {
  if (t === undefined || t === null) return 0;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

function normalizeTime(t: string): string {
  // the entries of one object, and of the objects written in one second, carry the same time
  if (t === lastNormalized.time) return lastNormalized.text;
  const ms = Date.parse(t);
  const text = Number.isNaN(ms) ? t : formatManagedTime(new Date(ms));
  lastNormalized = { time: t, text };
  return text;
}

let lastNormalized = { time: '', text: '' };

/** Byte order, as Go compares strings. */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** encoding/json's string: HTML characters and line/paragraph separators escaped as \uXXXX. */
export function goJSONString(s: string): string {
  return goEscapeJSON(JSON.stringify(s));
}

/** Go's encoder escapes of JSON text: `<`, `>`, `&`, U+2028 and U+2029 as \uXXXX (they only occur inside strings). */
export function goEscapeJSON(text: string): string {
  return text.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Go's %v of a ManagedFieldsEntry: its fields in order, space separated, in braces. */
function goEntryString(e: JSONObject): string {
  const show = (k: string): string => {
    const v = ownField(e, k);
    if (v === undefined || v === null) return k === 'time' || k === 'fieldsV1' ? '<nil>' : '';
    return typeof v === 'string' ? v : JSON.stringify(v);
  };
  return `{${['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1', 'subresource'].map(show).join(' ')}}`;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
