import type { DeleteOptions as MetaDeleteOptions } from '../../../apis/meta/v1/options.js';
import { newBadRequest, newInvalid } from '../../apimachinery/errors/index.js';
import { decodeRequestBody, type DecodeCancellation } from '../../apimachinery/serializer/body.js';
import type { FieldError } from '../../apimachinery/validation/field.js';
import type { DeleteOptions } from '../../registry/rest.js';
import type { APIRequest } from '../../apimachinery/request/http.js';
import { queryBool, queryInt, queryString, queryStrings } from './queryparams.js';
import { validateDryRun } from './writeoptions.js';

/**
 * DeleteOptions of a DELETE: from the body when there is one (JSON, YAML or protobuf, kind and
 * apiVersion optional: kubectl sends `{"propagationPolicy":"Background"}`), else from the query. Validated
 * as ValidateDeleteOptions (422 on DeleteOptions.meta.k8s.io).
 */
export async function readDeleteOptions(req: APIRequest): Promise<{ options: DeleteOptions; raw: MetaDeleteOptions }> {
  const body = await req.readBody();
  const raw = body.length > 0 ? await decodeDeleteOptionsBody(body, String(req.headers['content-type'] ?? ''), req) : deleteOptionsFromQuery(req.query);
  validateDeleteOptions(raw);
  return {
    raw: { ...raw, kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1' },
    options: {
      dryRun: (raw.dryRun ?? []).length > 0,
      gracePeriodSeconds: raw.gracePeriodSeconds,
      preconditions: raw.preconditions,
      propagationPolicy: raw.propagationPolicy,
      orphanDependents: raw.orphanDependents,
    },
  };
}

function deleteOptionsFromQuery(query: URLSearchParams): MetaDeleteOptions {
  const out: MetaDeleteOptions = {};
  const grace = queryInt(query, 'gracePeriodSeconds');
  if (grace !== undefined) out.gracePeriodSeconds = grace;
  const orphan = queryBool(query, 'orphanDependents');
  if (orphan !== undefined) out.orphanDependents = orphan;
  if (query.has('propagationPolicy')) out.propagationPolicy = queryString(query, 'propagationPolicy') as MetaDeleteOptions['propagationPolicy'];
  const dryRun = queryStrings(query, 'dryRun');
  if (dryRun.length > 0) out.dryRun = dryRun;
  return out;
}

type FieldType = 'int' | 'string' | 'bool' | 'strings' | 'preconditions';
const FIELDS: Readonly<Record<string, FieldType>> = {
  gracePeriodSeconds: 'int',
  propagationPolicy: 'string',
  orphanDependents: 'bool',
  dryRun: 'strings',
  preconditions: 'preconditions',
  ignoreStoreReadErrorWithClusterBreakingPotential: 'bool',
};

/** What a DELETE body decodes into; a protobuf envelope may name DeleteOptions under any apiVersion. */
const DELETE_OPTIONS = { apiVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions' };

async function decodeDeleteOptionsBody(body: Buffer, contentType: string, cancel: DecodeCancellation): Promise<MetaDeleteOptions> {
  const { value } = await decodeRequestBody(body, contentType, { into: DELETE_OPTIONS }, cancel);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw newBadRequest(`json: cannot unmarshal ${Array.isArray(value) ? 'array' : typeof value} into Go value of type v1.DeleteOptions`);
  }
  const obj = value as Record<string, unknown>;
  if (obj['kind'] !== undefined && obj['kind'] !== null && obj['kind'] !== '' && obj['kind'] !== 'DeleteOptions') {
    throw newBadRequest(`decoded object cannot be converted to DeleteOptions: kind ${JSON.stringify(obj['kind'])}`);
  }
  const out: Record<string, unknown> = {};
  for (const [key, type] of Object.entries(FIELDS)) {
    const v = obj[key];
    if (v === undefined || v === null) continue;
    if (!hasType(v, type)) throw newBadRequest(`json: cannot unmarshal ${jsonType(v)} into Go struct field DeleteOptions.${key} of type ${goType(type)}`);
    out[key] = v;
  }
  return out as MetaDeleteOptions;
}

function hasType(v: unknown, type: FieldType): boolean {
  switch (type) {
    case 'int':
      return typeof v === 'number' && Number.isInteger(v);
    case 'string':
      return typeof v === 'string';
    case 'bool':
      return typeof v === 'boolean';
    case 'strings':
      return Array.isArray(v) && v.every((s) => typeof s === 'string');
    case 'preconditions': {
      if (typeof v !== 'object' || Array.isArray(v)) return false;
      const p = v as Record<string, unknown>;
      return ['uid', 'resourceVersion'].every((k) => p[k] === undefined || p[k] === null || typeof p[k] === 'string');
    }
  }
}

function jsonType(v: unknown): string {
  return Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v === 'object' ? 'object' : typeof v;
}

function goType(t: FieldType): string {
  return { int: 'int64', string: 'string', bool: 'bool', strings: '[]string', preconditions: 'v1.Preconditions' }[t];
}

const PROPAGATION_POLICIES = ['Foreground', 'Background', 'Orphan', 'nil'];

function validateDeleteOptions(o: MetaDeleteOptions): void {
  const errs: FieldError[] = [];
  if (o.orphanDependents !== undefined && o.propagationPolicy !== undefined) {
    errs.push({ type: 'FieldValueInvalid', field: 'propagationPolicy', badValue: o.propagationPolicy, detail: 'orphanDependents and deletionPropagation cannot be both set' });
  }
  if (o.propagationPolicy !== undefined && !PROPAGATION_POLICIES.slice(0, 3).includes(o.propagationPolicy)) {
    errs.push({
      type: 'FieldValueNotSupported',
      field: 'propagationPolicy',
      badValue: o.propagationPolicy,
      detail: `supported values: ${PROPAGATION_POLICIES.map((v) => JSON.stringify(v)).join(', ')}`,
    });
  }
  errs.push(...validateDryRun(o.dryRun ?? []));
  if (errs.length > 0) throw newInvalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', errs);
}
