import { validatePathSegmentName } from '../../../runtime/registry/generic/keys.js';
import type { RESTStrategy } from '../../../runtime/apimachinery/definition/strategy.js';
import { markGoValidation } from '../../../runtime/apimachinery/validation/typed.js';
import type { APIService } from './types.js';
import { validateAPIService, validateAPIServiceStatus } from './validation.js';

/**
 * The APIService strategy of kube-aggregator: names are path segments rather than DNS
 * subdomains, because the legacy core group's APIService is `v1.`, and must be
 * `<version>.<group>`; the rest is ValidateAPIService, the kind's whole validation
 * (markGoValidation), so no schema check words an error before it. Updates must carry a
 * resourceVersion.
 */
export const APIServiceStrategy = {
  allowUnconditionalUpdate: false,
  validateName: validatePathSegmentName,
  validate: markGoValidation((a: APIService) => validateAPIService(a)),
  validateUpdate: (a: APIService) => validateAPIService(a),
  status: {
    validateUpdate: (a: APIService) => validateAPIServiceStatus(a),
  },
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
