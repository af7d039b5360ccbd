// An in-memory API server for discovery tests, as client-go's discovery tests use httptest
// handlers: routes by path, sees the Accept header the client sends, answers JSON or a 404
// Status. It stands for the network, not for storage.
import { newNotFound } from '../../../runtime/apimachinery/errors/index.js';
import type { DiscoveryRequest } from '../../../runtime/client/discovery/index.js';
import type { RESTClient, RESTRequest, Watch } from '../../../runtime/client/types.js';

export type Route = (req: { path: string; accept: string | undefined }) => unknown;

export class FakeServer implements RESTClient {
  readonly requests: { path: string; accept: string | undefined }[] = [];

  constructor(readonly routes: Record<string, Route>) {}

  request<R>(req: RESTRequest): Promise<R> {
    const accept = (req as DiscoveryRequest).accept;
    this.requests.push({ path: req.path, accept });
    const route = Object.hasOwn(this.routes, req.path) ? this.routes[req.path] : undefined;
    if (route === undefined) return Promise.reject(newNotFound({ group: '', resource: '' }, ''));
    try {
      const body = route({ path: req.path, accept });
      if (body instanceof Error) return Promise.reject(body);
      // A copy, as a body decoded from the wire would be.
      return Promise.resolve(JSON.parse(JSON.stringify(body)) as R);
    } catch (e) {
      return Promise.reject(e as Error);
    }
  }

  watch<T>(): Promise<Watch<T>> {
    return Promise.reject(new Error('discovery does not watch'));
  }

  count(path: string): number {
    return this.requests.filter((r) => r.path === path).length;
  }
}

/** Whether the client asked for the aggregated document first, as kubectl does. */
export function wantsAggregated(accept: string | undefined): boolean {
  return accept?.startsWith('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList') === true;
}
