import type { RESTOverrideContext, RESTStorageOverride } from '../../registry/types.js';
import { TokenREST } from './token.js';
import { TOKEN_REQUEST_DEFINITION, TOKEN_REQUEST_GO_TYPES, TOKEN_REQUEST_SCHEMA, TOKEN_REQUEST_SCHEMAS } from './tokenrequest-kind.js';

/**
 * ServiceAccount storage (pkg/registry/core/serviceaccount/storage): the generic store, and the
 * `token` subresource (TokenRequest) when the server issues service-account tokens. Without an
 * issuer (no --service-account-signing-key-file) kube installs no such route: the path is not
 * found and discovery does not list it.
 */
export function serviceAccountStorage(ctx: Pick<RESTOverrideContext, 'storages' | 'auth' | 'resources'>): RESTStorageOverride {
  const issuer = ctx.auth?.serviceAccountTokens;
  if (issuer === undefined) return { storages: ctx.storages };
  const token = new TokenREST({ serviceAccounts: ctx.storages.main, issuer, resources: ctx.resources });
  return {
    storages: ctx.storages,
    subresources: {
      token: {
        group: 'authentication.k8s.io',
        version: 'v1',
        kind: 'TokenRequest',
        schema: TOKEN_REQUEST_SCHEMA,
        openapi: { components: { schemas: TOKEN_REQUEST_SCHEMAS } },
        openapiDefinition: TOKEN_REQUEST_DEFINITION,
        goTypes: TOKEN_REQUEST_GO_TYPES,
        storage: token,
      },
    },
  };
}
