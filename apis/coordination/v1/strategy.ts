import type { RESTStrategy } from '../../../runtime/apimachinery/definition/strategy.js';
import type { Lease } from './types.js';
import { validateLeaseSpec } from './validation.js';

/**
 * kube's Lease strategy (pkg/registry/coordination/lease): PUT may create a Lease (leader
 * election writes them that way) but must name the resourceVersion it replaces. strategy and
 * preferredHolder belong to coordinated leader election, an alpha feature kube 1.32 leaves off:
 * they are dropped on create, and on update unless the stored Lease already had them.
 */
export const LeaseStrategy = {
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: false,
  prepareForCreate(lease: Lease): void {
    if (lease.spec === undefined) return;
    delete lease.spec.strategy;
    delete lease.spec.preferredHolder;
  },
  prepareForUpdate(lease: Lease, old: Lease): void {
    if (lease.spec === undefined) return;
    if (old.spec?.strategy === undefined) delete lease.spec.strategy;
    if (old.spec?.preferredHolder === undefined) delete lease.spec.preferredHolder;
  },
  validate: (lease: Lease) => validateLeaseSpec(lease.spec),
  validateUpdate: (lease: Lease) => validateLeaseSpec(lease.spec),
} satisfies RESTStrategy<Lease>;
