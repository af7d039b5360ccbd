import { validatePathSegmentName } from '../../../runtime/registry/generic/keys.js';
import type { RESTStrategy } from '../../../runtime/registry/strategy.js';
import type { APIService } from './types.js';

/**
 * The APIService strategy of kube-aggregator: names are path segments rather than DNS
 * subdomains, because the legacy core group's APIService is `v1.`; that a name is
 * `<version>.<group>` the schema's rule checks.
 */
export const APIServiceStrategy = {
  validateName: validatePathSegmentName,
} satisfies RESTStrategy<APIService>;
