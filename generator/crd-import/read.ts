import { isMap, isScalar, isSeq, LineCounter, type ParsedNode, parseAllDocuments, type Scalar } from 'yaml';
import type { CustomResourceDefinition } from '../../apis/apiextensions/v1/types.js';
import { convertV1beta1 } from './v1beta1.js';

/** One CustomResourceDefinition read from a manifest, converted to apiextensions.k8s.io/v1. */
export interface ReadCRD {
  /** Line of the document's first content line. */
  readonly line: number;
  readonly crd: CustomResourceDefinition;
}

/** A problem found while reading a manifest, at a line of that manifest. */
export interface ReadProblem {
  readonly line: number;
  readonly message: string;
}

/** What one manifest holds: its CRDs and the documents of other kinds that were skipped. */
export interface ReadManifest {
  readonly crds: readonly ReadCRD[];
  /** `Kind apiVersion` of each non-CRD document, for the import report. */
  readonly skipped: readonly { readonly line: number; readonly what: string }[];
  readonly problems: readonly ReadProblem[];
}

const CRD_API_VERSIONS = new Set(['apiextensions.k8s.io/v1', 'apiextensions.k8s.io/v1beta1']);

/**
 * Reads a multi-document YAML manifest as kubectl would apply it: every
 * `apiextensions.k8s.io/v1` and `v1beta1` CustomResourceDefinition is kept
 * (v1beta1 converted to v1 as the apiextensions server does), documents of
 * any other kind are skipped, and a problem is reported at the line of the
 * document (or field) it concerns.
 */
export function readManifest(text: string): ReadManifest {
  const lines = new LineCounter();
  const crds: ReadCRD[] = [];
  const skipped: { line: number; what: string }[] = [];
  const problems: ReadProblem[] = [];
  const lineOf = (offset: number | undefined): number => (offset === undefined ? 1 : lines.linePos(offset).line);
  for (const doc of parseAllDocuments(text, { lineCounter: lines, uniqueKeys: true })) {
    if (doc.errors.length > 0) {
      const err = doc.errors[0]!;
      problems.push({ line: err.linePos?.[0].line ?? lineOf(err.pos[0]), message: `not valid YAML: ${err.message.split('\n')[0]}` });
      continue;
    }
    if (doc.contents === null) continue;
    const line = lineOf(doc.contents.range?.[0]);
    if (!isMap(doc.contents)) {
      problems.push({ line, message: 'a manifest document must be an object (a Kubernetes resource)' });
      continue;
    }
    const value = doc.toJS({ maxAliasCount: 100 }) as Record<string, unknown>;
    const apiVersion = value['apiVersion'];
    const kind = value['kind'];
    if (kind !== 'CustomResourceDefinition' || typeof apiVersion !== 'string' || !CRD_API_VERSIONS.has(apiVersion)) {
      skipped.push({ line, what: `${typeof kind === 'string' ? kind : '(no kind)'} ${typeof apiVersion === 'string' ? apiVersion : '(no apiVersion)'}` });
      continue;
    }
    const contents = doc.contents;
    const fieldLine = (path: readonly (string | number)[]): number => lineOf(fieldOffset(contents, path));
    const crd = apiVersion === 'apiextensions.k8s.io/v1beta1' ? convertV1beta1(value) : (value as unknown as CustomResourceDefinition);
    const problem = checkCRD(crd);
    if (problem !== undefined) {
      problems.push({ line: fieldLine(problem.path), message: problem.message });
      continue;
    }
    crds.push({ line, crd });
  }
  return { crds, skipped, problems };
}

/**
 * Where a field is written: the offset of its key (of the item, in a
 * sequence), or of the deepest part of the path that exists.
 */
function fieldOffset(root: ParsedNode, path: readonly (string | number)[]): number | undefined {
  let node: unknown = root;
  let offset = root.range[0];
  for (const step of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && p.key.value === step);
      if (pair === undefined) break;
      offset = (pair.key as Scalar).range?.[0] ?? offset;
      node = pair.value;
    } else if (isSeq(node) && typeof step === 'number' && node.items[step] !== undefined) {
      node = node.items[step];
      offset = (node as ParsedNode).range[0];
    } else {
      break;
    }
  }
  return offset;
}

/**
 * The fields a client needs from a CRD, checked with kube's wording where it
 * has one (ValidateCustomResourceDefinition), so a broken manifest is named
 * at its line instead of failing later in the emitters.
 */
function checkCRD(crd: CustomResourceDefinition): { path: (string | number)[]; message: string } | undefined {
  const spec = crd.spec as Partial<CustomResourceDefinition['spec']> | undefined;
  const name = crd.metadata?.name ?? '(no name)';
  if (spec === undefined || typeof spec !== 'object') return { path: [], message: `CustomResourceDefinition ${name}: spec: Required value` };
  if (typeof spec.group !== 'string' || spec.group === '') return { path: ['spec'], message: `CustomResourceDefinition ${name}: spec.group: Required value` };
  const names = spec.names;
  if (names === undefined || typeof names.kind !== 'string' || names.kind === '') {
    return { path: ['spec', 'names'], message: `CustomResourceDefinition ${name}: spec.names.kind: Required value` };
  }
  if (typeof names.plural !== 'string' || names.plural === '') {
    return { path: ['spec', 'names'], message: `CustomResourceDefinition ${name}: spec.names.plural: Required value` };
  }
  if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(names.kind)) {
    return { path: ['spec', 'names', 'kind'], message: `CustomResourceDefinition ${name}: spec.names.kind: Invalid value: "${names.kind}": cannot be used as a TypeScript type name` };
  }
  if (!Array.isArray(spec.versions) || spec.versions.length === 0) {
    return { path: ['spec'], message: `CustomResourceDefinition ${name}: spec.versions: Invalid value: must have exactly one version marked as storage version` };
  }
  for (const [i, v] of spec.versions.entries()) {
    if (typeof v?.name !== 'string' || !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(v.name)) {
      return { path: ['spec', 'versions', i], message: `CustomResourceDefinition ${name}: spec.versions[${i}].name: Invalid value: ${JSON.stringify(v?.name ?? null)}: a DNS-1035 label is required` };
    }
    const schema = v.schema?.openAPIV3Schema;
    if (schema === undefined || schema === null || typeof schema !== 'object') {
      return { path: ['spec', 'versions', i], message: `CustomResourceDefinition ${name}: spec.versions[${i}].schema.openAPIV3Schema: Required value: schemas are required` };
    }
  }
  return undefined;
}
