import { validatePathSegmentName } from '../../../runtime/registry/generic/keys.js';
import type { RESTStrategy } from '../../../runtime/apimachinery/definition/strategy.js';
import type { APIService } from './types.js';

/**
 * The APIService strategy of kube-aggregator: names are path segments rather than DNS
 * subdomains, because the legacy core group's APIService is `v1.`; that a name is
 * `<version>.<group>` the schema's rule checks. Updates must carry a resourceVersion.
 */
export const APIServiceStrategy = {
  allowUnconditionalUpdate: false,
  validateName: validatePathSegmentName,
  // kube-aggregator's table: `Local` or the service's namespace/name, and the Available
  // condition's status with its reason when it is not True.
  tablePrinter: {
    kind: 'handwritten',
    cells: {
      Service: (a: APIService) => (a.spec?.service ? `${a.spec.service.namespace ?? ''}/${a.spec.service.name ?? ''}` : 'Local'),
      Available: (a: APIService) => {
        const c = a.status?.conditions?.find((x) => x.type === 'Available');
        if (c === undefined) return 'Unknown';
        return c.status !== 'True' && c.reason ? `${c.status} (${c.reason})` : c.status;
      },
    },
  },
} satisfies RESTStrategy<APIService>;
