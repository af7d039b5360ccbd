/**
 * Bound service-account tokens (kube's pkg/serviceaccount and
 * k8s.io/apiserver/pkg/authentication/serviceaccount): signing, verifying, validating against the
 * store, and the issuer's OIDC discovery documents.
 */
export { newServiceAccountTokenAuthenticator, type ServiceAccountTokenAuthenticator, type ServiceAccountTokenAuthenticatorOptions } from './authenticator.js';
export { newServiceAccountTokenIssuer, tokenLifetime, type ServiceAccountTokenIssuerOptions } from './issuer.js';
export { JWKS_PATH, newOpenIDMetadata, OPENID_CONFIG_PATH, openIDMetadataRoutes, type OpenIDMetadata, type OpenIDMetadataOptions, type OpenIDMetadataRoute } from './discovery.js';
export { keyIDFromPublicKey, parsePrivateKeyPEM, parsePublicKeysPEM, PublicKeySet, type PublicKey, type SigningAlgorithm } from './keys.js';
export type { BoundObjectKind, ObjectIdentity, ServiceAccountTokenGetter } from './validator.js';
export { makeGroupNames, makeUsername, serviceAccountUserInfo, type ServiceAccountInfo } from './util.js';
