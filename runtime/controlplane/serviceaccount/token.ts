import type { BoundObjectReference, TokenRequest } from '../../../apis/authentication/v1/types.js';
import type { ServiceAccount } from '../../../apis/core/v1/serviceaccount.js';
import { newBadRequest, newConflict, newInvalid, newNotFound } from '../../apimachinery/errors/index.js';
import type { BoundObject, ServiceAccountTokenIssuer } from '../../apimachinery/request/authenticator.js';
import { deepCopyJSON } from '../../apimachinery/serializer/jsonvalue.js';
import type { FieldError } from '../../apimachinery/validation/field.js';
import { formatTime } from '../../registry/generic/index.js';
import type { Getter, KubeObject, RequestContext, ValidateObjectFunc, WriteOptions } from '../../registry/rest.js';
import type { ResourceRegistry } from '../../registry/resources.js';
import type { NamedCreater } from '../../registry/types.js';
import { validateTokenRequest } from './validation.js';

const TOKEN_REQUEST = { group: 'authentication.k8s.io', kind: 'TokenRequest' };

/** The kinds a token may be bound to (kube 1.32: Node binding is on by default), by the core resource that serves them. */
const BOUND_RESOURCES: Readonly<Record<string, { readonly resource: string; readonly namespaced: boolean }>> = {
  Pod: { resource: 'pods', namespaced: true },
  Secret: { resource: 'secrets', namespaced: true },
  Node: { resource: 'nodes', namespaced: false },
};

export interface TokenRESTOptions {
  /** The ServiceAccount storage the account is read from. */
  readonly serviceAccounts: Getter;
  readonly issuer: ServiceAccountTokenIssuer;
  /** Where bound objects are read; a kind the server does not serve is not found. */
  readonly resources: ResourceRegistry | undefined;
  /** Clock of creationTimestamp. Default: the current time. */
  readonly now?: () => Date;
}

/**
 * pkg/registry/core/serviceaccount/storage/token.go (kube 1.32): `POST serviceaccounts/<name>/token`
 * issues a token for the account named in the URL. The body's name and namespace, when set, must
 * be the URL's; the account must exist; audiences default to the issuer's; the request is
 * validated (lifetime) and given to validating admission; a bound object must exist (and be run
 * by the account, for a Pod) with the UID given, if one is; a lifetime above the issuer's maximum
 * is shortened with a warning. The answer is the request with the account's name and namespace,
 * the time of issue and the token; nothing is stored.
 */
export class TokenREST implements NamedCreater {
  constructor(private readonly opts: TokenRESTOptions) {}

  async create(ctx: RequestContext, name: string, obj: KubeObject, validate: ValidateObjectFunc, _opts?: WriteOptions): Promise<KubeObject> {
    const req = deepCopyJSON(obj) as unknown as TokenRequest;
    const namespace = ctx.namespace;
    if (namespace === '') throw newBadRequest('namespace is required');
    const meta = (req.metadata ??= {});
    if ((meta.name ?? '') !== '' && meta.name !== name) throw invalid(name, 'metadata.name', meta.name, 'must match the service account name if specified');
    if ((meta.namespace ?? '') !== '' && meta.namespace !== namespace) throw invalid(name, 'metadata.namespace', meta.namespace, 'must match the service account namespace if specified');

    const sa = (await this.opts.serviceAccounts.get(ctx, name, { resourceVersion: '' })) as unknown as ServiceAccount;
    req.spec ??= { audiences: [] };
    if ((req.spec.audiences ?? []).length === 0) req.spec.audiences = [...this.opts.issuer.defaultAudiences];
    if ((meta.name ?? '') === '') meta.name = sa.metadata?.name ?? name;
    if ((meta.namespace ?? '') === '') meta.namespace = sa.metadata?.namespace ?? namespace;
    meta.creationTimestamp = formatTime((this.opts.now ?? (() => new Date()))());
    delete req.status;

    const errs = validateTokenRequest(req);
    if (errs.length > 0) throw newInvalid(TOKEN_REQUEST, '', errs);
    await validate(deepCopyJSON(req) as unknown as KubeObject, undefined);

    const ref = req.spec.boundObjectRef;
    const boundObject = ref === undefined ? undefined : await this.boundObject(ctx, name, namespace, ref);

    let expirationSeconds = req.spec.expirationSeconds ?? 0;
    const max = this.opts.issuer.maxExpirationSeconds;
    if (max > 0 && expirationSeconds > max) {
      ctx.warn(`requested expiration of ${expirationSeconds} seconds shortened to ${max} seconds`);
      expirationSeconds = req.spec.expirationSeconds = max;
    }
    const issued = await this.opts.issuer.issue({
      namespace,
      serviceAccountName: name,
      serviceAccountUID: sa.metadata?.uid ?? '',
      audiences: req.spec.audiences,
      expirationSeconds,
      ...(boundObject === undefined ? {} : { boundObject }),
    });
    req.status = { token: issued.token, expirationTimestamp: issued.expirationTimestamp };
    return req as unknown as KubeObject;
  }

  /**
   * The bound object, read as the request's user would read it (`get` on its resource). A kind
   * other than Pod, Secret or Node in the core group is a 400 naming its group, version and kind as
   * Go prints a GroupVersionKind; a kind this server does not serve is not found, as an absent object.
   */
  private async boundObject(ctx: RequestContext, saName: string, namespace: string, ref: BoundObjectReference): Promise<BoundObject> {
    const gvk = groupVersionKind(ref.apiVersion ?? '', ref.kind ?? '');
    const target = gvk.group === '' && Object.hasOwn(BOUND_RESOURCES, gvk.kind) ? BOUND_RESOURCES[gvk.kind] : undefined;
    if (target === undefined) throw newBadRequest(`cannot bind token to object of type ${gvk.group}/${gvk.version}, Kind=${gvk.kind}`);
    const name = ref.name ?? '';
    // The stores' key function refuses an empty name before anything is read.
    if (name === '') throw newBadRequest('Name parameter required.');
    const gr = { group: '', resource: target.resource };
    const installed = this.opts.resources?.get(gr);
    if (installed === undefined) throw newNotFound(gr, name);
    const objNamespace = target.namespaced ? namespace : '';
    const getCtx: RequestContext = {
      ...ctx,
      namespace: objNamespace,
      requestInfo: {
        ...ctx.requestInfo,
        verb: 'get',
        namespace: objNamespace,
        resource: target.resource,
        subresource: '',
        name,
        parts: [target.resource, name],
        apiGroup: '',
        apiVersion: gvk.version,
      },
    };
    const obj = await installed.rest.main.get(getCtx, name, { resourceVersion: '' });
    if (gvk.kind === 'Pod') {
      const spec = obj['spec'] as { serviceAccountName?: unknown } | undefined;
      if (spec?.serviceAccountName !== saName) throw newBadRequest(`cannot bind token for serviceaccount ${JSON.stringify(saName)} to pod running with different serviceaccount name.`);
    }
    const uid = obj.metadata?.uid ?? '';
    if ((ref.uid ?? '') !== '' && ref.uid !== uid) {
      throw newConflict(
        { group: gvk.group, resource: gvk.kind },
        name,
        `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
      );
    }
    return { kind: gvk.kind, apiVersion: ref.apiVersion ?? '', name, uid };
  }
}

function invalid(name: string, field: string, value: unknown, detail: string): Error {
  const err: FieldError = { type: 'FieldValueInvalid', field, badValue: value, detail };
  return newInvalid(TOKEN_REQUEST, name, [err]);
}

/** schema.FromAPIVersionAndKind: an apiVersion Go cannot parse (more than one `/`) keeps the kind alone. */
function groupVersionKind(apiVersion: string, kind: string): { group: string; version: string; kind: string } {
  const parts = apiVersion.split('/');
  if (apiVersion === '') return { group: '', version: '', kind };
  if (parts.length === 1) return { group: '', version: apiVersion, kind };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]!, kind };
  return { group: '', version: '', kind };
}
