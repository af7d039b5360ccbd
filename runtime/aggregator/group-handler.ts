import { newNotAcceptable } from '../apimachinery/errors/index.js';
import type { Handler } from '../apimachinery/request/http.js';
import { negotiateDiscovery } from '../server/discovery/index.js';
import { isLocal, sortedByGroupAndVersion, type CachedAPIService } from './apiservice.js';

export interface GroupHandlerOptions {
  readonly group: string;
  /** The APIServices as the aggregator knows them now. */
  readonly apiServices: () => readonly CachedAPIService[];
  /** Answers for groups served entirely by this server's chain (its discovery documents). */
  readonly localDelegate: Handler;
}

/**
 * `/apis/<group>` (kube-aggregator's apiGroupHandler): once an APIService of the group points at
 * a service, the group's APIGroup document is made from its APIServices, versions ordered by
 * priority, the first preferred, as kube does; a group only this server's chain serves is left to
 * its own discovery documents, which say the same and more.
 */
export function newGroupHandler(o: GroupHandlerOptions): Handler {
  return async (req, res) => {
    const members = o.apiServices().filter((s) => (s.spec?.group ?? '') === o.group);
    if (members.length === 0 || members.every(isLocal) || (req.method !== 'GET' && req.method !== 'HEAD')) return o.localDelegate(req, res);
    if (negotiateDiscovery(req.headers.accept, false) === undefined) return res.writeError(newNotAcceptable(['application/json']));
    const [sorted = []] = sortedByGroupAndVersion(members);
    const versions = sorted.map((s) => ({ groupVersion: `${o.group}/${s.spec?.version ?? ''}`, version: s.spec?.version ?? '' }));
    res.writeJSON(200, { kind: 'APIGroup', apiVersion: 'v1', name: o.group, versions, preferredVersion: versions[0] });
  };
}
