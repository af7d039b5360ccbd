import type { APIServiceInformer } from '../../generated/informers/apiregistration/v1/apiservice.js';
import type { HealthChecker } from '../server/healthz.js';
import { isAvailable, type CachedAPIService } from './apiservice.js';

/**
 * kube-apiserver's `autoregister-completion` check (makeAPIServiceAvailableHealthCheck): fails
 * until every one of `names` has been seen Available at least once, naming those still missing.
 * Once seen it stays passed: a built-in group version does not stop being ready because an
 * aggregated server took it over. `passed` resolves when the check first passes.
 */
export function apiServicesAvailableCheck(name: string, names: readonly string[], informer: APIServiceInformer): HealthChecker & { readonly passed: Promise<void> } {
  const pending = new Set(names);
  let pass!: () => void;
  const passed = new Promise<void>((resolve) => {
    pass = resolve;
  });
  if (pending.size === 0) pass();
  const observe = (svc: CachedAPIService): void => {
    const n = svc.metadata?.name ?? '';
    if (!pending.has(n) || !isAvailable(svc)) return;
    pending.delete(n);
    if (pending.size === 0) pass();
  };
  informer.informer().addEventHandler({ onAdd: observe, onUpdate: (_old, svc) => observe(svc) });
  return {
    name,
    passed,
    check: () => (pending.size === 0 ? Promise.resolve() : Promise.reject(new Error(`missing APIService: [${[...pending].sort().join(' ')}]`))),
  };
}
