import { newForbidden } from 'kube-ts-apiserver/runtime';
import type { AdmissionContext, Attributes, MutationInterface, ObjectLookup, Operation } from 'kube-ts-apiserver/runtime';
import type { Fischer } from '../v1alpha1/types.js';

const FISCHERS = { group: 'wardle.example.com', resource: 'fischers' } as const;

/**
 * BanFlunder, sample-apiserver's admission plugin: a Flunder may not be created under a name
 * that any Fischer lists in its disallowedFlunders.
 */
export function banFlunder(lookup: ObjectLookup): MutationInterface {
  return {
    name: 'BanFlunder',
    handles: (op: Operation) => op === 'CREATE',
    async admit(a: Attributes, ctx: AdmissionContext): Promise<void> {
      if (a.group !== 'wardle.example.com' || a.kind !== 'Flunder') return;
      const fischers = (await lookup.list(FISCHERS, '', ctx)) as readonly Fischer[];
      if (fischers.some((f) => f.disallowedFlunders?.includes(a.name) === true)) {
        throw newForbidden({ group: a.group, resource: a.resource }, a.name, 'this name may not be used, please change the resource name');
      }
    },
  };
}
