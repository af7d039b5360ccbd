import type { RequestInfo, UserInfo } from '../apimachinery/request/types.js';
import type { RequestContext } from '../registry/rest.js';

/** The identity of the control plane's own calls (kube's loopback client user). */
export const APISERVER_USER: UserInfo = Object.freeze({ name: 'system:apiserver', groups: Object.freeze(['system:masters', 'system:authenticated']) });

const INTERNAL_REQUEST: RequestInfo = Object.freeze({
  isResourceRequest: true,
  path: '',
  verb: '',
  apiPrefix: '',
  apiGroup: '',
  apiVersion: '',
  namespace: '',
  resource: '',
  subresource: '',
  name: '',
  parts: Object.freeze([]),
});

/** A RequestContext for in-process calls of the API server itself (its controllers, admission lookups). */
export function systemContext(namespace: string, parent: { readonly signal: AbortSignal }): RequestContext {
  return userContext(APISERVER_USER, namespace, parent);
}

/** A RequestContext for in-process calls made as `user` (a controller acting as its own user). */
export function userContext(user: UserInfo, namespace: string, parent: { readonly signal: AbortSignal }): RequestContext {
  return {
    namespace,
    user,
    requestInfo: { ...INTERNAL_REQUEST, namespace },
    get signal() {
      return parent.signal;
    },
    warn: () => {},
  };
}
