import { newMethodNotSupported, newNotFound, newPathNotFound } from '../../apimachinery/errors/index.js';
import type { RESTClient, RESTRequest, Watch } from '../types.js';
import { type Action, type ActionBase, type ActionListOptions, type ActionVerb, type ReactionFunc, reactorMatches, type WatchReactionFunc } from './actions.js';
import { deleteOptionsFrom, groupResource } from './mutations.js';
import { patchBytes } from './patch.js';
import { type FakeResource, servesVerb } from './resources.js';
import { parseRoute, type Route } from './route.js';
import type { ObjectTracker } from './tracker.js';
import { FieldManagedTracker, type ManagedWriteOptions } from './fieldmanaged.js';

type RESTWatchRequest = Omit<RESTRequest, 'method' | 'body' | 'contentType'>;

interface Reactor {
  readonly verb: string;
  readonly resource: string;
  readonly fn: ReactionFunc;
}

interface WatchReactor {
  readonly resource: string;
  readonly fn: WatchReactionFunc;
}

/**
 * The RESTClient of a fake clientset (client-go's testing.Fake): requests are
 * routed by path and method to an ObjectTracker, so generated typed clients,
 * informers and controllers run on it unchanged. Every request is recorded
 * as an Action before reactors see it; prepended reactors answer first (to
 * inject errors or canned objects), the tracker last.
 */
export class FakeRESTClient implements RESTClient {
  #actions: Action[] = [];
  #reactors: Reactor[] = [];
  #watchReactors: WatchReactor[] = [];

  /** The writes of the tracker, through the field manager (managedFields, server-side apply). */
  readonly managed: FieldManagedTracker;

  constructor(readonly tracker: ObjectTracker) {
    this.managed = new FieldManagedTracker(tracker, () => tracker.now());
  }

  /** The actions recorded so far, oldest first. */
  actions(): readonly Action[] {
    return [...this.#actions];
  }

  clearActions(): void {
    this.#actions = [];
  }

  /** Runs `fn` before the reactors already registered, for actions of the verb and resource (`*` for any). */
  prependReactor(verb: ActionVerb | '*', resource: string, fn: ReactionFunc): void {
    this.#reactors.unshift({ verb, resource, fn });
  }

  prependWatchReactor(resource: string, fn: WatchReactionFunc): void {
    this.#watchReactors.unshift({ resource, fn });
  }

  async request<R>(req: RESTRequest): Promise<R> {
    const route = parseRoute(req.path);
    const action = toAction(req, route);
    this.#actions.push(action);
    for (const reactor of this.#reactors) {
      if (!reactorMatches(reactor.verb, reactor.resource, action)) continue;
      const reaction = await reactor.fn(action);
      if (!reaction.handled) continue;
      if (reaction.error !== undefined) throw reaction.error;
      return structuredClone(reaction.object) as R;
    }
    return (await this.#serve(req, route, action)) as R;
  }

  async watch<T>(req: RESTWatchRequest): Promise<Watch<T>> {
    const route = parseRoute(req.path);
    const action: Extract<Action, { verb: 'watch' }> = { verb: 'watch', ...actionBase(route), listOptions: queryStrings(req.query) };
    this.#actions.push(action);
    for (const reactor of this.#watchReactors) {
      if (!reactorMatches('watch', reactor.resource, action)) continue;
      const reaction = await reactor.fn(action);
      if (!reaction.handled) continue;
      if (reaction.error !== undefined) throw reaction.error;
      if (reaction.watch !== undefined) return reaction.watch as Watch<T>;
    }
    const r = this.#resource(route, 'watch');
    if (route.name !== '' || route.subresource !== '') throw newMethodNotSupported(groupResource(r), 'watch');
    const q = action.listOptions;
    const watch = this.tracker.watch(route.resource, route.namespace, {
      labelSelector: q['labelSelector'],
      fieldSelector: q['fieldSelector'],
      resourceVersion: q['resourceVersion'],
      ...(q['sendInitialEvents'] !== undefined ? { sendInitialEvents: q['sendInitialEvents'] === 'true' } : {}),
      allowWatchBookmarks: q['allowWatchBookmarks'] === 'true',
      ...(q['timeoutSeconds'] !== undefined ? { timeoutSeconds: Number(q['timeoutSeconds']) } : {}),
      ...(req.signal !== undefined ? { signal: req.signal } : {}),
    });
    return watch as unknown as Watch<T>;
  }

  /** The tracker's answer, after the checks the server's installer makes on path, verb and subresource. */
  #serve(req: RESTRequest, route: Route, action: Action): unknown {
    const write = writeOptions(req);
    const r = this.#resource(route, action.verb);
    const gvr = route.resource;
    const ns = route.namespace;
    if (route.subresource !== '') return this.#serveSubresource(req, route, r, action.verb);
    const notAllowed = (): Error => newMethodNotSupported(groupResource(r), action.verb);
    const namespacedCollection = !r.descriptor.namespaced || ns !== '';
    switch (action.verb) {
      case 'get':
        return this.tracker.get(gvr, ns, route.name);
      case 'list':
        return this.#asList(r, this.tracker.list(gvr, ns, listOptions(action.listOptions)));
      case 'create':
        if (route.name !== '' || !namespacedCollection) throw notAllowed();
        return this.managed.create(gvr, ns, req.body, write);
      case 'update':
        if (route.name === '') throw notAllowed();
        return this.managed.update(gvr, ns, req.body, { ...write, name: route.name });
      case 'patch':
        if (route.name === '') throw notAllowed();
        return this.managed.patch(gvr, ns, route.name, req.contentType ?? 'application/json', patchBytes(req.body), write);
      case 'delete':
        return this.tracker.delete(gvr, ns, route.name, deleteOptionsFrom(req.body, req.query?.['dryRun']));
      case 'deletecollection':
        if (!namespacedCollection) throw notAllowed();
        return this.#asList(r, this.tracker.deleteCollection(gvr, ns, deleteOptionsFrom(req.body, req.query?.['dryRun']), listOptions(queryStrings(req.query))));
      default:
        throw notAllowed();
    }
  }

  #serveSubresource(req: RESTRequest, route: Route, r: FakeResource, verb: ActionVerb): unknown {
    const gvr = route.resource;
    const ns = route.namespace;
    const sub = route.subresource;
    const exists = (sub === 'status' && r.subresources?.status === true) || (sub === 'scale' && r.subresources?.scale !== undefined);
    if (!exists || route.name === '') throw newNotFound(groupResource(r), route.name);
    if (verb !== 'get' && verb !== 'update' && verb !== 'patch') throw newMethodNotSupported(groupResource(r), verb);
    const contentType = req.contentType ?? 'application/json';
    if (sub === 'status') {
      if (verb === 'get') return this.tracker.get(gvr, ns, route.name);
      const write = { ...writeOptions(req), subresource: 'status' as const };
      if (verb === 'update') return this.managed.update(gvr, ns, req.body, { ...write, name: route.name });
      return this.managed.patch(gvr, ns, route.name, contentType, patchBytes(req.body), write);
    }
    if (verb === 'get') return this.tracker.getScale(gvr, ns, route.name);
    if (verb === 'update') return this.managed.updateScale(gvr, ns, route.name, req.body, writeOptions(req));
    return this.managed.patchScale(gvr, ns, route.name, contentType, patchBytes(req.body), writeOptions(req));
  }

  /** The served resource of the route: 404 as the server answers for unknown resources and misplaced paths, 405 for verbs it does not serve. */
  #resource(route: Route, verb: ActionVerb): FakeResource {
    const r = this.tracker.findResource(route.resource);
    if (r === undefined) {
      const groupServed = this.tracker.resources().some((x) => x.descriptor.group === route.resource.group && x.descriptor.version === route.resource.version);
      if (!groupServed) throw newPathNotFound();
      throw newNotFound({ group: route.resource.group, resource: route.resource.resource }, route.name);
    }
    const fits = r.descriptor.namespaced ? route.namespaceInPath || (route.name === '' && route.subresource === '') : !route.namespaceInPath;
    if (!fits) throw newNotFound(groupResource(r), route.name);
    if (route.subresource === '' && !servesVerb(r, verb)) throw newMethodNotSupported(groupResource(r), verb);
    return r;
  }

  #asList(r: FakeResource, listed: { items: unknown[]; metadata: unknown }): unknown {
    const { group, version, kind } = r.descriptor;
    return { apiVersion: group === '' ? version : `${group}/${version}`, kind: `${kind}List`, metadata: listed.metadata, items: listed.items };
  }
}

function verbOf(method: RESTRequest['method'], route: Route): ActionVerb {
  const collection = route.name === '';
  switch (method) {
    case 'GET':
      return collection ? 'list' : 'get';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return collection ? 'deletecollection' : 'delete';
  }
}

function actionBase(route: Route): ActionBase {
  return { resource: route.resource, namespace: route.namespace, name: route.name, subresource: route.subresource };
}

function toAction(req: RESTRequest, route: Route): Action {
  const base = actionBase(route);
  const body = req.body === undefined ? undefined : structuredClone(req.body);
  const verb = verbOf(req.method, route);
  switch (verb) {
    case 'get':
      return { verb, ...base };
    case 'list':
    case 'watch':
      return { verb, ...base, listOptions: queryStrings(req.query) };
    case 'create':
    case 'update':
      return { verb, ...base, object: body };
    case 'patch':
      return { verb, ...base, patchType: req.contentType ?? 'application/json', patch: body };
    case 'delete':
      return { verb, ...base, deleteOptions: body };
    case 'deletecollection':
      return { verb, ...base, deleteOptions: body, listOptions: queryStrings(req.query) };
  }
}

/** The write options of a request's query: dryRun, fieldManager and force, as the server reads them. */
function writeOptions(req: RESTRequest): ManagedWriteOptions {
  const q = req.query ?? {};
  const fieldManager = q['fieldManager'];
  return { dryRun: q['dryRun'] === 'All', ...(typeof fieldManager === 'string' ? { fieldManager } : {}), force: q['force'] === true || q['force'] === 'true' };
}

/** The query as it goes on the wire: defined values only, as strings. */
function queryStrings(query: RESTRequest['query']): ActionListOptions {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) out[k] = String(v);
  return out;
}

function listOptions(q: ActionListOptions): Parameters<ObjectTracker['list']>[2] {
  return {
    labelSelector: q['labelSelector'],
    fieldSelector: q['fieldSelector'],
    resourceVersion: q['resourceVersion'],
    resourceVersionMatch: q['resourceVersionMatch'],
    ...(q['limit'] !== undefined ? { limit: Number(q['limit']) } : {}),
    continue: q['continue'],
  };
}
