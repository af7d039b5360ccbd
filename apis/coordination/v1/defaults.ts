import { normalizeMicroTimeField } from '../../../runtime/apimachinery/microtime.js';
import type { Lease } from './types.js';

/** Not a default but kube's decoding of a Lease: acquireTime and renewTime as MicroTime writes them (UTC, six fraction digits). Mutates in place. */
export function setLeaseDefaults(obj: Lease): void {
  normalizeMicroTimeField(obj.spec, 'acquireTime');
  normalizeMicroTimeField(obj.spec, 'renewTime');
}
