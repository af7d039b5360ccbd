import type { DiscoveryManager } from '../server/discovery/index.js';
import type { GenericAPIServer } from '../server/genericapiserver.js';
import type { AggregatedAPIServices } from './discovery-backend.js';
import { AggregatedDiscoveryController } from './discovery-controller.js';
import { AggregatedOpenAPIController, type AggregatedOpenAPIRegistry } from './openapi-controller.js';

/** How often aggregated servers' discovery and OpenAPI are fetched again (kube: a minute each). */
export interface AggregationTimings {
  readonly discoveryResyncPeriodMs?: number | undefined;
  readonly openAPIResyncPeriodMs?: number | undefined;
}

export interface AggregationOptions extends AggregationTimings {
  /** The APIService registration (APIAggregator.registry). */
  readonly apiServices: AggregatedAPIServices;
  /** The chain's one discovery model: backends publish under `aggregator`, APIServices give the order. */
  readonly discovery: DiscoveryManager;
  readonly openapi: AggregatedOpenAPIRegistry;
  readonly onError?: (key: string, err: unknown) => void;
}

/**
 * Merges aggregated servers into the head server's discovery and OpenAPI documents: the
 * discovery controller (APIService priorities, backends' discovery) and the OpenAPI controller
 * (backends' v2 and v3 documents), started by the post-start hooks `apiservice-discovery-controller`
 * and `apiservice-openapi-controller` and stopped when shutdown begins (or by stop()).
 */
export function mergeAggregatedAPIs(server: GenericAPIServer, o: AggregationOptions): { stop(): Promise<void> } {
  const errors = o.onError !== undefined ? { onError: o.onError } : {};
  const discovery = new AggregatedDiscoveryController({
    apiServices: o.apiServices,
    discovery: o.discovery.forSource('aggregator'),
    priorities: o.discovery,
    ...(o.discoveryResyncPeriodMs !== undefined ? { resyncPeriodMs: o.discoveryResyncPeriodMs } : {}),
    ...errors,
  });
  const openapi = new AggregatedOpenAPIController({
    apiServices: o.apiServices,
    openapi: o.openapi,
    ...(o.openAPIResyncPeriodMs !== undefined ? { resyncPeriodMs: o.openAPIResyncPeriodMs } : {}),
    ...errors,
  });
  const stopping = new AbortController();
  const runs: Promise<void>[] = [];
  const background = (run: Promise<void>): void => {
    runs.push(run.catch((err: unknown) => (o.onError ?? defaultOnError)('aggregated-apis', err)));
  };
  server.addPostStartHook('apiservice-discovery-controller', async () => background(discovery.run(stopping.signal)));
  server.addPostStartHook('apiservice-openapi-controller', async () => background(openapi.run(stopping.signal)));
  const stop = async (): Promise<void> => {
    stopping.abort();
    await Promise.all(runs);
  };
  server.addPreShutdownHook('stop-apiservice-discovery-and-openapi-controllers', stop);
  return { stop };
}

function defaultOnError(key: string, err: unknown): void {
  process.stderr.write(`${key}: ${err instanceof Error ? err.message : String(err)}\n`);
}
