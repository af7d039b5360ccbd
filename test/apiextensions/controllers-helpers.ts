// Shared pieces of the apiextensions controller tests: CRD builders and a bounded wait.
import type { CustomResourceDefinition, CustomResourceDefinitionCondition, CustomResourceDefinitionNames, CustomResourceDefinitionVersion } from '../../apis/apiextensions/v1/types.js';
import { until } from '../integration/assertions.js';

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
      versions: o.versions ?? [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: structuredClone(CRONTAB_SCHEMA) as never },
          subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
        },
      ],
    },
  };
}

export function condition(crd: CustomResourceDefinition, type: string): CustomResourceDefinitionCondition | undefined {
  return crd.status?.conditions?.find((c) => c.type === type);
}

/** The value at `path` inside parsed JSON (undefined when any step is missing). */
export function dig(value: unknown, ...path: string[]): unknown {
  let v = value;
  for (const k of path) v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[k] : undefined;
  return v;
}

export { until };
