// The garbage collector (kube-controller-manager's pkg/controller/garbagecollector), run inside the control plane.
export { GarbageCollector, type GarbageCollectorOptions } from './garbagecollector.js';
export type { ServedResources, ContextFunc } from './operations.js';
