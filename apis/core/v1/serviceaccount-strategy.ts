import type { RESTStrategy } from '../../../runtime/apimachinery/definition/strategy.js';
import type { ServiceAccount } from './types.js';

/** kube's ServiceAccount strategy: names are DNS subdomains (the default); the table counts the listed secrets. */
export const ServiceAccountStrategy = {
  tablePrinter: {
    kind: 'handwritten',
    cells: {
      Secrets: (sa: ServiceAccount) => sa.secrets?.length ?? 0,
    },
  },
} satisfies RESTStrategy<ServiceAccount>;
