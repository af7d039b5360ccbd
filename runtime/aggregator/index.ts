// The aggregator (kube-aggregator): APIService handling and proxying, and the controllers that
// register, keep and check APIServices.
export { APIAggregator, type APIAggregatorOptions } from './aggregator.js';
export type { APIServiceRegistry, APIServiceEvent, RegisteredAPIService } from './registry.js';
export { APIServiceHandlerManager, type HandlerManagerOptions } from './registry.js';
export { BackendRequestError, DEFAULT_BACKEND_REQUEST_TIMEOUT_MS, type BackendRequest, type BackendResponse } from './backend-client.js';
export { builtinAPIServices, localAPIService, CRD_API_SERVICE_PRIORITY, type APIServicePriority } from './priorities.js';
export {
  apiServiceName,
  groupVersionOfName,
  isAvailable,
  isLocal,
  availableCondition,
  sortedByGroupAndVersion,
  AVAILABLE,
  LEGACY_API_SERVICE_NAME,
  APIREGISTRATION_GROUP,
  type CachedAPIService,
} from './apiservice.js';
export { AUTO_REGISTER_MANAGED_LABEL, MANAGE_CONTINUOUSLY, MANAGE_ON_START } from './controllers/autoregister.js';
export { DEFAULT_AVAILABILITY_CHECK_PERIOD_MS, DEFAULT_DISCOVERY_CHECK_TIMEOUT_MS } from './controllers/available-remote.js';
export { AGGREGATOR_USER, authProxyHeaders, escapeExtraKey } from './proxy-headers.js';
export { ServiceResolutionError, type ResolvedEndpoint, type ServiceResolver } from './service-resolver.js';
export type { BackendTLSConfig, ProxyClientCertificate } from './transport.js';
