import type { Attributes, Authorizer } from '../apimachinery/request/authorizer.js';
import type { UserInfo } from '../apimachinery/request/types.js';
import type { NamespaceFinalizing } from '../controllers/namespace/controller.js';
import { forbiddenError } from '../endpoints/filters/authorization.js';
import type { ServedResources } from '../controllers/garbagecollector/operations.js';
import type { InstalledResource } from '../registry/resources.js';
import type { RequestContext, StandardStorage } from '../registry/rest.js';

/**
 * The served resources as a controller acting as its own user sees them: every call of a main
 * storage is authorized first, with the user of the call's context, as if it had come through the
 * handler chain. kube's garbage collector and namespace controller run in kube-controller-manager
 * under their own service accounts and reach the API through the authorizer; ours call the REST
 * storages in process (no serialization, no HTTP), and this keeps them inside their roles anyway.
 * A denied call throws kube's 403 Forbidden StatusError, as the API would answer.
 */
export function authorizedResources(resources: ServedResources, authorizer: Authorizer): ServedResources {
  const wrapped = new WeakMap<InstalledResource, InstalledResource>();
  const wrap = (r: InstalledResource): InstalledResource => {
    let w = wrapped.get(r);
    if (w === undefined) {
      w = { ...r, rest: { ...r.rest, main: authorizedStorage(r, r.rest.main, authorizer) } };
      wrapped.set(r, w);
    }
    return w;
  };
  return { all: () => resources.all().map(wrap) };
}

/** A main storage whose every call is authorized first for the call's user, as `gr` (see authorizedResources). */
export function authorizedStorage(gr: { readonly group: string; readonly resource: string }, main: StandardStorage, authorizer: Authorizer): StandardStorage {
  const check = (ctx: RequestContext, verb: string, name: string) => authorize(authorizer, ctx.user, { ...gr, namespace: ctx.namespace, verb, name });
  return {
    get: async (ctx, name, opts) => (await check(ctx, 'get', name), main.get(ctx, name, opts)),
    list: async (ctx, opts) => (await check(ctx, 'list', ''), main.list(ctx, opts)),
    watch: async (ctx, opts) => (await check(ctx, 'watch', ''), main.watch(ctx, opts)),
    create: async (ctx, obj, validate, opts) => (await check(ctx, 'create', ''), main.create(ctx, obj, validate, opts)),
    update: async (ctx, name, objInfo, validate, opts) => (await check(ctx, 'update', name), main.update(ctx, name, objInfo, validate, opts)),
    delete: async (ctx, name, validate, opts) => (await check(ctx, 'delete', name), main.delete(ctx, name, validate, opts)),
    deleteCollection: async (ctx, validate, opts, listOpts) => (await check(ctx, 'deletecollection', ''), main.deleteCollection(ctx, validate, opts, listOpts)),
  };
}

/** Throws kube's 403 unless `user` may do `verb` on the resource (or its subresource). */
export async function authorize(
  authorizer: Authorizer,
  user: UserInfo,
  a: { readonly group: string; readonly resource: string; readonly subresource?: string; readonly namespace: string; readonly verb: string; readonly name: string },
): Promise<void> {
  const attributes: Attributes = {
    user,
    verb: a.verb,
    isResourceRequest: true,
    path: '',
    namespace: a.namespace,
    apiGroup: a.group,
    apiVersion: '*',
    resource: a.resource,
    subresource: a.subresource ?? '',
    name: a.name,
  };
  const result = await authorizer.authorize(attributes);
  if (result.decision !== 'allow') throw forbiddenError(attributes, result.reason);
}

/**
 * The namespace controller's own calls on namespaces, authorized for its user as kube's are:
 * deletion, `namespaces/finalize` (the `kubernetes` finalizer) and `namespaces/status` (the
 * deletion conditions).
 */
export function authorizedNamespaceFinalizing(namespaces: NamespaceFinalizing, authorizer: Authorizer, user: UserInfo): NamespaceFinalizing {
  const gr = { group: '', resource: 'namespaces' };
  return {
    storages: { main: authorizedStorage(gr, namespaces.storages.main, authorizer) },
    delete: async (ctx, name, validate, opts) => (await authorize(authorizer, ctx.user, { ...gr, namespace: '', verb: 'delete', name }), namespaces.delete(ctx, name, validate, opts)),
    removeKubernetesFinalizer: async (name) => (await authorize(authorizer, user, { ...gr, subresource: 'finalize', namespace: '', verb: 'update', name }), namespaces.removeKubernetesFinalizer(name)),
    setDeletionConditions: async (name, merge) => (
      await authorize(authorizer, user, { ...gr, subresource: 'status', namespace: '', verb: 'update', name }),
      namespaces.setDeletionConditions(name, merge)
    ),
  };
}
