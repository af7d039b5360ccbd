import type { RESTStrategy } from '../../apimachinery/definition/strategy.js';

/**
 * The top-level fields an endpoint of the generic store resets, as kube's strategies report them
 * to the field manager (ResetFieldsStrategy.GetResetFields): the main resource keeps the stored
 * status when a status subresource owns it; the status subresource keeps the stored spec (and
 * every other field, but kube names only spec); a strategy may declare more. A field named here
 * is owned by no manager through that endpoint, so applying it there neither conflicts nor sticks.
 */
export function resetFieldNames(strategy: RESTStrategy<never> | undefined, hasStatus: boolean, subresource: string): readonly string[] {
  if (subresource === 'status') return unique(['spec', ...(strategy?.status?.resetFields ?? [])]);
  if (subresource !== '') return [];
  return unique([...(hasStatus ? ['status'] : []), ...(strategy?.resetFields ?? [])]);
}

function unique(names: readonly string[]): readonly string[] {
  return [...new Set(names)];
}
