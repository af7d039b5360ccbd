import type { Watch } from '../types.js';
import type { GroupVersionResource } from './resources.js';

export type ActionVerb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

/** The query of a list, watch or deletecollection, as sent (strings). */
export type ActionListOptions = Readonly<Record<string, string>>;

/** What every action names: the resource, namespace, name and subresource of the request. */
export interface ActionBase {
  readonly resource: GroupVersionResource;
  /** '' for cluster-scoped resources and requests across namespaces. */
  readonly namespace: string;
  /** '' for collection requests. */
  readonly name: string;
  /** '' for the resource itself, else `status`, `scale`… */
  readonly subresource: string;
}

/**
 * One request a fake client received (client-go's testing.Action), recorded
 * before any reactor runs. Bodies are copies as sent.
 */
export type Action =
  | (ActionBase & { readonly verb: 'get' })
  | (ActionBase & { readonly verb: 'list'; readonly listOptions: ActionListOptions })
  | (ActionBase & { readonly verb: 'watch'; readonly listOptions: ActionListOptions })
  | (ActionBase & { readonly verb: 'create'; readonly object: unknown })
  | (ActionBase & { readonly verb: 'update'; readonly object: unknown })
  | (ActionBase & { readonly verb: 'patch'; readonly patchType: string; readonly patch: unknown })
  | (ActionBase & { readonly verb: 'delete'; readonly deleteOptions: unknown })
  | (ActionBase & { readonly verb: 'deletecollection'; readonly deleteOptions: unknown; readonly listOptions: ActionListOptions });

/** A reactor's answer: not handled (the next reactor, finally the tracker, answers), or the response or error to give. */
export type Reaction = { readonly handled: false } | { readonly handled: true; readonly object?: unknown; readonly error?: unknown };

export type ReactionFunc = (action: Action) => Reaction | Promise<Reaction>;

export type WatchReaction = { readonly handled: false } | { readonly handled: true; readonly watch?: Watch<unknown>; readonly error?: unknown };

export type WatchReactionFunc = (action: Extract<Action, { verb: 'watch' }>) => WatchReaction | Promise<WatchReaction>;

/**
 * Whether a reactor registered for verb and resource handles the action:
 * `*` matches anything; the resource may name a subresource
 * (`services/status`), a bare resource matches its subresources too.
 */
export function reactorMatches(verb: string, resource: string, action: Action): boolean {
  if (verb !== '*' && verb !== action.verb) return false;
  if (resource === '*' || resource === action.resource.resource) return true;
  return action.subresource !== '' && resource === `${action.resource.resource}/${action.subresource}`;
}
