import type { FieldError } from '../../../runtime/apimachinery/validation/field.js';
import { isQualifiedName } from '../../../runtime/apimachinery/validation/names.js';
import type { LeaseSpec } from './types.js';

/** The strategies of coordinated leader election kube defines (validLeaseStrategies). */
const VALID_LEASE_STRATEGIES = ['OldestEmulationVersion'] as const;

/** kube's ValidateLeaseSpec (the name is a DNS subdomain, the store's default). */
export function validateLeaseSpec(spec: LeaseSpec | undefined, path = 'spec'): FieldError[] {
  const errs: FieldError[] = [];
  if (spec === undefined || spec === null) return errs;
  if (spec.leaseDurationSeconds !== undefined && spec.leaseDurationSeconds <= 0) {
    errs.push({ type: 'FieldValueInvalid', field: `${path}.leaseDurationSeconds`, badValue: spec.leaseDurationSeconds, detail: 'must be greater than 0' });
  }
  if (spec.leaseTransitions !== undefined && spec.leaseTransitions < 0) {
    errs.push({ type: 'FieldValueInvalid', field: `${path}.leaseTransitions`, badValue: spec.leaseTransitions, detail: 'must be greater than or equal to 0' });
  }
  if (spec.strategy !== undefined) errs.push(...validateCoordinatedLeaseStrategy(spec.strategy, `${path}.strategy`));
  if ((spec.preferredHolder ?? '') !== '' && (spec.strategy ?? '') === '') {
    errs.push({ type: 'FieldValueForbidden', field: `${path}.preferredHolder`, detail: 'may only be specified if `strategy` is defined' });
  }
  return errs;
}

/** ValidateCoordinatedLeaseStrategy; kube appends `strategy` to the path it is given, so the field reads `spec.strategy.strategy`. */
export function validateCoordinatedLeaseStrategy(strategy: string, path: string): FieldError[] {
  const field = `${path}.strategy`;
  if (strategy.split('/').length === 1) {
    return (VALID_LEASE_STRATEGIES as readonly string[]).includes(strategy)
      ? []
      : [{ type: 'FieldValueNotSupported', field, badValue: strategy, detail: `supported values: ${VALID_LEASE_STRATEGIES.map((s) => JSON.stringify(s)).join(', ')}` }];
  }
  return isQualifiedName(strategy).map((detail) => ({ type: 'FieldValueInvalid', field, badValue: strategy, detail }));
}
