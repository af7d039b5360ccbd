export { ClusterAuthenticationTrustController, type ClusterAuthenticationTrustControllerOptions } from './controller.js';
export {
  AUTHENTICATION_CONFIGMAP_KEYS,
  AUTHENTICATION_CONFIGMAP_NAME,
  AUTHENTICATION_CONFIGMAP_NAMESPACE,
  authenticationInfoFor,
  combinedAuthenticationInfo,
  configMapDataFor,
  type ClusterAuthenticationInfo,
} from './info.js';
export { newSingleConfigMapInformer } from './informer.js';
