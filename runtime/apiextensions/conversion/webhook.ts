import { randomUUID } from 'node:crypto';
import type { WebhookConversion } from '../../../apis/apiextensions/v1/types.js';
import { validateAnnotations, validateLabels } from '../../apimachinery/validation/objectmeta.js';
import { formatFieldError } from '../../apimachinery/validation/field.js';
import type { KubeObject } from '../../registry/rest.js';
import { gvkString, type CRConverter } from './converter.js';
import type { ServiceResolver } from './service-resolver.js';
import { WebhookClient } from './webhook-client.js';

export interface WebhookConverterOptions {
  readonly group: string;
  readonly webhook: WebhookConversion;
  readonly serviceResolver?: ServiceResolver;
  readonly timeoutMs?: number;
}

/** The ConversionReview versions this server speaks, in no particular preference: the CRD's list decides. */
const REVIEW_VERSIONS: ReadonlySet<string> = new Set(['v1', 'v1beta1']);

interface ConversionReviewResponse {
  uid?: unknown;
  convertedObjects?: unknown;
  result?: { status?: unknown; message?: unknown };
}

/**
 * The `Webhook` strategy (webhookConverter): the objects not yet in the desired version go in
 * one ConversionReview (the first of the CRD's conversionReviewVersions this server speaks) to
 * the webhook; the answer is checked as kube checks it (kind, uid, result, count, each object's
 * apiVersion, kind, name, namespace and uid) and each converted object keeps the original's
 * metadata except labels and annotations. Every failure is `conversion webhook for <GVK>
 * failed: …` (or kube's other wording), naming the webhook's URL for transport failures.
 */
export function webhookConverter(opts: WebhookConverterOptions): CRConverter {
  const config = opts.webhook.clientConfig;
  if (config === undefined) throw new Error('conversion webhook without clientConfig');
  const client = new WebhookClient({
    clientConfig: config,
    ...(opts.serviceResolver !== undefined ? { serviceResolver: opts.serviceResolver } : {}),
    ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
  });
  const reviewVersion = opts.webhook.conversionReviewVersions.find((v) => REVIEW_VERSIONS.has(v));

  return {
    synchronous: false,
    close: () => client.close(),
    async convert(objs, toVersion) {
      const desired = `${opts.group}/${toVersion}`;
      const pending = objs.filter((o) => o.apiVersion !== desired);
      if (pending.length === 0) return [...objs];
      const gvk = gvkString(pending[0] as KubeObject);
      if (reviewVersion === undefined) throw new Error('no supported conversion review versions');
      const uid = randomUUID();
      const review = {
        kind: 'ConversionReview',
        apiVersion: `apiextensions.k8s.io/${reviewVersion}`,
        request: { uid, desiredAPIVersion: desired, objects: pending },
      };
      let answer: unknown;
      try {
        answer = await client.post(review);
      } catch (err) {
        throw new Error(`conversion webhook for ${gvk} failed: ${(err as Error).message}`, { cause: err });
      }
      let converted: unknown[];
      try {
        converted = convertedObjects(answer, reviewVersion, uid);
      } catch (err) {
        throw new Error(`conversion webhook for ${gvk} failed: ${(err as Error).message}`, { cause: err });
      }
      if (converted.length !== pending.length) {
        throw new Error(`conversion webhook for ${gvk} returned ${converted.length} objects, expected ${pending.length}`);
      }
      let next = 0;
      return objs.map((original) => {
        if (original.apiVersion === desired) return original;
        const index = next++;
        return checkedObject(original, converted[index], desired, `conversion webhook for ${gvk} returned invalid converted object at index ${index}`);
      });
    },
  };
}

/** getConvertedObjectsFromResponse. */
function convertedObjects(answer: unknown, reviewVersion: string, uid: string): unknown[] {
  const review = (answer ?? {}) as { apiVersion?: unknown; kind?: unknown; response?: ConversionReviewResponse | null };
  if (reviewVersion === 'v1') {
    const apiVersion = typeof review.apiVersion === 'string' ? review.apiVersion : '';
    const kind = typeof review.kind === 'string' ? review.kind : '';
    if (apiVersion !== 'apiextensions.k8s.io/v1' || kind !== 'ConversionReview') {
      throw new Error(`expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got ${apiVersion}, Kind=${kind}`);
    }
  }
  const response = review.response;
  if (response === undefined || response === null) throw new Error('no response provided');
  if (reviewVersion === 'v1' && response.uid !== uid) {
    throw new Error(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(typeof response.uid === 'string' ? response.uid : '')}`);
  }
  const status = response.result?.status;
  if (status !== 'Success') {
    const message = response.result?.message;
    if (typeof message === 'string' && message !== '') throw new Error(message);
    throw new Error(`response.result.status was '${typeof status === 'string' ? status : ''}', not 'Success'`);
  }
  return Array.isArray(response.convertedObjects) ? response.convertedObjects : [];
}

/** One converted object: the desired apiVersion, the original's kind and identity, the original's metadata but for labels and annotations. */
function checkedObject(original: KubeObject, value: unknown, desired: string, prefix: string): KubeObject {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${prefix}: expected an object`);
  const out = value as KubeObject;
  if (out.apiVersion !== desired) {
    throw new Error(`${prefix}: invalid groupVersion (expected ${desired}, received ${String(out.apiVersion ?? '')})`);
  }
  if (out.kind !== original.kind) throw new Error(`${prefix}: invalid kind (expected ${String(original.kind)}, received ${String(out.kind ?? '')})`);
  const mine = original.metadata ?? {};
  const theirs = (out.metadata ?? {}) as Record<string, unknown>;
  for (const [field, label] of [
    ['name', 'name'],
    ['namespace', 'namespace'],
    ['uid', 'UID'],
  ] as const) {
    const a = mine[field] ?? '';
    const b = theirs[field] ?? '';
    if (a !== b) throw new Error(`${prefix}: must have the same ${label}: ${String(a)} != ${String(b)}`);
  }
  if (out.metadata === undefined || out.metadata === null || typeof out.metadata !== 'object') {
    throw new Error(`${prefix.replace('invalid converted object', 'invalid metadata in object')}: missing metadata in converted object`);
  }
  return { ...out, metadata: restoredMetadata(mine, theirs, prefix.replace('invalid converted object', 'invalid metadata in object')) };
}

/** restoreObjectMeta: the original metadata, with the webhook's labels and annotations (validated when changed). */
function restoredMetadata(original: Record<string, unknown>, converted: Record<string, unknown>, prefix: string): KubeObject['metadata'] {
  const meta: Record<string, unknown> = structuredClone(original);
  for (const field of ['labels', 'annotations'] as const) {
    const value = converted[field];
    if (value === undefined || value === null) {
      delete meta[field];
      continue;
    }
    if (typeof value !== 'object' || Array.isArray(value)) throw new Error(`${prefix}: invalid metadata.${field} of type ${typeof value} in converted object`);
    const map = value as Record<string, unknown>;
    for (const [k, v] of Object.entries(map)) {
      if (typeof v !== 'string') throw new Error(`${prefix}: metadata.${field}[${k}] must be a string, but is ${typeof v} in converted object`);
    }
    const strings = map as Record<string, string>;
    const errs = field === 'labels' ? validateLabels(strings, 'metadata.labels') : validateAnnotations(strings, 'metadata.annotation');
    if (errs.length > 0) throw new Error(`${prefix}: ${errs.length === 1 ? formatFieldError(errs[0]!) : `[${errs.map(formatFieldError).join(', ')}]`}`);
    meta[field] = strings;
  }
  return meta as KubeObject['metadata'];
}
