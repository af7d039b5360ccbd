import type { RESTStrategy } from '../../../runtime/apimachinery/definition/strategy.js';
import { validateSecret, validateSecretUpdate } from './secret-validation.js';
import { warningsForSecret } from './secret-warnings.js';
import type { Secret } from './types.js';

/**
 * kube's Secret strategy: ValidateSecret and ValidateSecretUpdate, warningsForSecret on create
 * and update (a TLS Secret whose certificate and key do not match), and stringData merged into
 * data before anything else sees the object (kube's v1 → internal conversion does it, so the
 * internal Secret has no stringData at all). The defaulter already merges what clients send;
 * the strategy merges again for writes that reach the store without the request pipeline.
 */
export const SecretStrategy = {
  tablePrinter: {
    kind: 'handwritten',
    cells: {
      Data: (s: Secret) => Object.keys(s.data ?? {}).length,
    },
  },
  prepareForCreate: (s: Secret) => mergeStringData(s),
  prepareForUpdate: (s: Secret) => mergeStringData(s),
  validate: (s: Secret) => validateSecret(s),
  validateUpdate: (s: Secret, old: Secret) => validateSecretUpdate(s, old),
  warningsOnCreate: (s: Secret) => warningsForSecret(s),
  warningsOnUpdate: (s: Secret) => warningsForSecret(s),
} satisfies RESTStrategy<Secret>;

/**
 * Moves stringData into data (base64), a key in both taking stringData's value, as kube's
 * Convert_v1_Secret_To_core_Secret; stringData is write-only and never stored. Mutates `s`.
 */
export function mergeStringData(s: Secret): void {
  const stringData = s.stringData;
  if (stringData === undefined || stringData === null) return;
  delete s.stringData;
  const entries = Object.entries(stringData);
  if (entries.length === 0) return;
  // A null-prototype copy: `__proto__` is a key like any other.
  const data: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, s.data);
  for (const [k, v] of entries) data[k] = Buffer.from(v, 'utf8').toString('base64');
  s.data = { ...data };
}
