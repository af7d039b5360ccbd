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
  // Every object created in the same second gets the same text: format it once (the text
  // depends on the second alone; an invalid date still throws below, as toISOString does).
  const second = Math.floor(d.getTime() / 1000);
  if (second === lastFormatted.second) return lastFormatted.text;
  const text = d.toISOString().replace(/\.\d+Z$/, 'Z');
  lastFormatted = { second, text };
  return text;
}

let lastFormatted = { second: NaN, text: '' };
