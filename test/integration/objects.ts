// The kinds the integration tests drive through every verb, in each served version: how to
// name them on kubectl's command line, how kubectl prints them, a valid manifest, and a change.
export interface KindCase {
  /** e.g. "Flunder wardle.example.com/v1beta1". */
  title: string;
  /** What kubectl is given: plural, or fully qualified `plural.version.group`. */
  resource: string;
  /** `<kind>.<group>` as kubectl prints it in "created"/"deleted" lines. */
  printed: string;
  /** GroupResource string as kube-apiserver writes it in Status messages. */
  groupResource: string;
  apiVersion: string;
  kind: string;
  namespaced: boolean;
  /** Table column headers kubectl shows for `get` (server columns). */
  columns: string[];
  manifest(name: string, namespace?: string): Record<string, unknown>;
  /** A merge patch changing the object's content (not metadata), and how to read it back. */
  specChange: { patch: Record<string, unknown>; jsonpath: string; expect: string };
  /** A content field unknown to the schema, for strict decoding, and its path in the message. */
  unknownField: { set: (o: Record<string, unknown>) => void; path: string };
}

const group = 'wardle.example.com';

export const flunderV1beta1: KindCase = {
  title: 'Flunder wardle.example.com/v1beta1 (preferred version)',
  resource: 'flunders',
  printed: `flunder.${group}`,
  groupResource: `flunders.${group}`,
  apiVersion: `${group}/v1beta1`,
  kind: 'Flunder',
  namespaced: true,
  columns: ['NAME', 'FLUNDERREFERENCE', 'FISCHERREFERENCE', 'TYPE', 'AGE'],
  manifest: (name, namespace) => ({
    apiVersion: `${group}/v1beta1`,
    kind: 'Flunder',
    metadata: { name, ...(namespace ? { namespace } : {}), labels: { app: 'it' } },
    spec: { flunderReference: 'other' },
  }),
  specChange: { patch: { spec: { flunderReference: 'changed' } }, jsonpath: '{.spec.flunderReference}', expect: 'changed' },
  unknownField: { set: (o) => ((o['spec'] as Record<string, unknown>)['bogus'] = 1), path: 'spec.bogus' },
};

export const flunderV1alpha1: KindCase = {
  title: 'Flunder wardle.example.com/v1alpha1 (fully qualified)',
  resource: `flunders.v1alpha1.${group}`,
  printed: `flunder.${group}`,
  groupResource: `flunders.${group}`,
  apiVersion: `${group}/v1alpha1`,
  kind: 'Flunder',
  namespaced: true,
  columns: ['NAME', 'REFERENCE', 'TYPE', 'AGE'],
  manifest: (name, namespace) => ({
    apiVersion: `${group}/v1alpha1`,
    kind: 'Flunder',
    metadata: { name, ...(namespace ? { namespace } : {}), labels: { app: 'it' } },
    spec: { reference: 'other', referenceType: 'Flunder' },
  }),
  specChange: { patch: { spec: { reference: 'changed' } }, jsonpath: '{.spec.reference}', expect: 'changed' },
  unknownField: { set: (o) => ((o['spec'] as Record<string, unknown>)['bogus'] = 1), path: 'spec.bogus' },
};

export const fischerV1alpha1: KindCase = {
  title: 'Fischer wardle.example.com/v1alpha1 (cluster-scoped)',
  resource: `fischers.v1alpha1.${group}`,
  printed: `fischer.${group}`,
  groupResource: `fischers.${group}`,
  apiVersion: `${group}/v1alpha1`,
  kind: 'Fischer',
  namespaced: false,
  columns: ['NAME', 'AGE'],
  manifest: (name) => ({
    apiVersion: `${group}/v1alpha1`,
    kind: 'Fischer',
    metadata: { name, labels: { app: 'it' } },
    disallowedFlunders: [`not-${name}`],
  }),
  specChange: { patch: { disallowedFlunders: ['changed'] }, jsonpath: '{.disallowedFlunders[0]}', expect: 'changed' },
  unknownField: { set: (o) => (o['bogus'] = 1), path: 'bogus' },
};

export const kindCases: readonly KindCase[] = [flunderV1beta1, flunderV1alpha1, fischerV1alpha1];

/** kube-apiserver's DNS-1123 subdomain message for an invalid metadata.name. */
export function invalidNameMessage(name: string): string {
  return `metadata.name: Invalid value: "${name}": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`;
}

let seq = 0;
/** A name unique within this test process (DNS-1123 label). */
export function uniqueName(prefix: string): string {
  return `${prefix}-${process.pid.toString(36)}-${(seq++).toString(36)}`;
}
