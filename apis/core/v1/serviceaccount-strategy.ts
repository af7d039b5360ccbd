import type { RESTStrategy } from '../../../runtime/apimachinery/definition/strategy.js';
import { validateKubeFinalizerNames } from './objectmeta-validation.js';
import type { ServiceAccount } from './types.js';

/**
 * kube's ServiceAccount strategy: names are DNS subdomains (the default); ValidateServiceAccount
 * is core's ObjectMeta checks, which ValidateServiceAccountUpdate runs for the update and again
 * for the object; the table counts the listed secrets.
 */
export const ServiceAccountStrategy = {
  validate: (sa: ServiceAccount) => validateKubeFinalizerNames(sa.metadata),
  validateUpdate: (sa: ServiceAccount) => [...validateKubeFinalizerNames(sa.metadata), ...validateKubeFinalizerNames(sa.metadata)],
  tablePrinter: {
    kind: 'handwritten',
    cells: {
      Secrets: (sa: ServiceAccount) => sa.secrets?.length ?? 0,
    },
  },
} satisfies RESTStrategy<ServiceAccount>;
