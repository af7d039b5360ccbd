// Shared pieces of the apiextensions controller tests: CRD builders and a bounded wait.
import assert from 'node:assert/strict';
import type { CustomResourceDefinition, CustomResourceDefinitionCondition, CustomResourceDefinitionNames, CustomResourceDefinitionVersion } from '../../apis/apiextensions/v1/types.js';

export interface CRDSpecOptions {
  readonly names?: Partial<CustomResourceDefinitionNames>;
  readonly scope?: 'Namespaced' | 'Cluster';
  readonly versions?: CustomResourceDefinitionVersion[];
}

/** The CronTab schema of the Kubernetes docs: spec.cronSpec, spec.image, spec.replicas. */
export const CRONTAB_SCHEMA = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      description: 'The desired schedule.',
      properties: {
        cronSpec: { type: 'string', description: 'The cron schedule.' },
        image: { type: 'string' },
        replicas: { type: 'integer' },
      },
    },
    status: { type: 'object', properties: { replicas: { type: 'integer' } } },
  },
} as const;

/** A CRD `<plural>.<group>` serving v1 (storage) with the CronTab schema and status/scale subresources. */
export function newCRD(group: string, plural: string, kind: string, o: CRDSpecOptions = {}): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: o.scope ?? 'Namespaced',
      names: { plural, singular: kind.toLowerCase(), kind, ...o.names },
      versions: o.versions ?? [{
        name: 'v1', served: true, storage: true,
        schema: { openAPIV3Schema: structuredClone(CRONTAB_SCHEMA) as never },
        subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
      }],
    },
  };
}

export function condition(crd: CustomResourceDefinition, type: string): CustomResourceDefinitionCondition | undefined {
  return crd.status?.conditions?.find((c) => c.type === type);
}

/** Polls `fn` until it returns a value (bounded, generous: no timing is asserted, only the outcome). */
export async function until<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}${last !== undefined ? ` (last error: ${String(last)})` : ''}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The value at `path` inside parsed JSON (undefined when any step is missing). */
export function dig(value: unknown, ...path: string[]): unknown {
  let v = value;
  for (const k of path) v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[k] : undefined;
  return v;
}
