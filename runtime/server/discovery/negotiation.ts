import { clauseMatches, parseAccept } from '../../apimachinery/serializer/accept.js';
import type { AggregatedDiscoveryVersion } from './documents.js';

/** What a discovery request gets: an aggregated document, the legacy document, or nothing (406). */
export type DiscoveryFormat = { readonly aggregated: AggregatedDiscoveryVersion } | 'legacy' | undefined;

export const AGGREGATED_GROUP = 'apidiscovery.k8s.io';
export const AGGREGATED_KIND = 'APIGroupDiscoveryList';

/** The exact Content-Type client-go compares with to recognise an aggregated document. */
export function aggregatedContentType(version: AggregatedDiscoveryVersion): string {
  return `application/json;g=${AGGREGATED_GROUP};v=${version};as=${AGGREGATED_KIND}`;
}

/** Media types named in 406 answers from discovery endpoints. */
export const DISCOVERY_MEDIA_TYPES: readonly string[] = ['application/json'];

/**
 * Negotiates per Accept clause (apiserver negotiation with DiscoveryEndpointRestrictions): the
 * first clause in preference order that JSON satisfies decides. A clause asking for a
 * conversion (`g`/`v`/`as`) is honoured only for apidiscovery.k8s.io v2 or v2beta1
 * APIGroupDiscoveryList, and only where `allowAggregated`; otherwise it is skipped. A plain JSON
 * or wildcard clause means the legacy document. Parameter order does not matter.
 */
export function negotiateDiscovery(accept: string | readonly string[] | undefined, allowAggregated: boolean): DiscoveryFormat {
  for (const clause of parseAccept(accept)) {
    if (!clauseMatches(clause, 'application', 'json')) continue;
    if (clause.params['stream'] !== undefined) continue;
    const g = clause.params['g'];
    const v = clause.params['v'];
    const as = clause.params['as'];
    if (g === undefined && v === undefined && as === undefined) return 'legacy';
    if (!allowAggregated || g !== AGGREGATED_GROUP || as !== AGGREGATED_KIND) continue;
    if (v === 'v2' || v === 'v2beta1') return { aggregated: v };
  }
  return undefined;
}
