import type { GroupKind, GroupResource } from '../../apimachinery/errors/index.js';
import type { KubeObject } from '../rest.js';
import type { RESTStrategy } from '../../apimachinery/definition/strategy.js';

/** What the create/update/delete preparation steps know about the resource they serve. */
export interface ResourceInfo {
  /** {group, plural}: NotFound, AlreadyExists and Conflict messages. */
  readonly groupResource: GroupResource;
  /** {group, Kind}: Invalid messages. */
  readonly groupKind: GroupKind;
  readonly namespaced: boolean;
  /** The hub version declares a status subresource: the main resource ignores status. */
  readonly hasStatus: boolean;
  readonly strategy: RESTStrategy<KubeObject>;
  readonly now: () => Date;
}

/** metav1.Time: RFC 3339 in UTC with second precision. */
export function formatTime(d: Date): string {
  return d.toISOString().replace(/\.\d+Z$/, 'Z');
}
