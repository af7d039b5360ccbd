import { isAlias, isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import { MAX_NESTING_DEPTH } from './json-scan.js';

/** YAML documents may expand at most this many aliases: a "billion laughs" body fails fast. */
export const MAX_ALIAS_COUNT = 100;

/** A YAML body that cannot become JSON; `message` is worded as sigs.k8s.io/yaml's (`yaml: line 2: …`). */
export class YAMLConversionError extends Error {
  override readonly name = 'YAMLConversionError';
}

export interface YAMLDecoded {
  readonly value: unknown;
  /** Paths of keys repeated within one mapping, as the JSON strict decoder prints them. */
  readonly duplicateFields: string[];
}

/**
 * Decodes a single YAML document into JSON values (yaml.YAMLToJSON): YAML 1.2
 * core schema, merge keys (`<<`) honoured, unknown tags read as their plain
 * value, at most `maxAliasCount` alias expansions, nesting bounded like JSON.
 * Throws YAMLConversionError for syntax errors, several documents, non-scalar
 * keys, non-finite numbers and excessive aliasing or depth.
 */
export function decodeYAML(text: string, opts: { maxAliasCount?: number; maxDepth?: number } = {}): YAMLDecoded {
  let doc;
  try {
    doc = parseDocument(text, { uniqueKeys: false, merge: true, schema: 'core' });
  } catch (err) {
    throw new YAMLConversionError(err instanceof RangeError ? 'yaml: exceeded max depth' : `yaml: ${messageOf(err)}`);
  }
  const first = doc.errors[0];
  if (first !== undefined) {
    const line = first.linePos?.[0].line;
    throw new YAMLConversionError(`yaml: ${line !== undefined ? `line ${line}: ` : ''}${firstSentence(first.message)}`);
  }
  const duplicateFields = duplicateKeys(doc.contents, opts.maxDepth ?? MAX_NESTING_DEPTH);
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: opts.maxAliasCount ?? MAX_ALIAS_COUNT });
  } catch (err) {
    throw new YAMLConversionError(err instanceof RangeError ? 'yaml: exceeded max depth' : `yaml: ${messageOf(err)}`);
  }
  checkJSONCompatible(value, opts.maxDepth ?? MAX_NESTING_DEPTH);
  return { value: value === undefined ? null : value, duplicateFields };
}

/** Walks the document without recursion: duplicate keys by path, non-scalar keys rejected. */
function duplicateKeys(root: unknown, maxDepth: number): string[] {
  const dups: string[] = [];
  const work: Array<{ node: unknown; path: string; depth: number }> = [{ node: root, path: '', depth: 0 }];
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    const { node, path, depth } = item;
    if (isAlias(node)) continue;
    if ((isMap(node) || isSeq(node)) && depth >= maxDepth) throw new YAMLConversionError('yaml: exceeded max depth');
    if (isSeq(node)) {
      node.items.forEach((child, i) => work.push({ node: child, path: `${path}[${i}]`, depth: depth + 1 }));
    } else if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        const key = pair.key as Node | null;
        if (key !== null && !isScalar(key) && !isAlias(key)) throw new YAMLConversionError('yaml: unsupported map key: only scalar keys are allowed');
        const name = key === null ? '' : isScalar(key) ? String(key.value) : String(key.toJSON());
        if (name === '<<') continue;
        const child = path === '' ? name : `${path}.${name}`;
        if (seen.has(name)) {
          if (!dups.includes(child)) dups.push(child);
        } else {
          seen.add(name);
        }
        work.push({ node: pair.value, path: child, depth: depth + 1 });
      }
    }
  }
  return dups;
}

function checkJSONCompatible(value: unknown, maxDepth: number): void {
  const work: Array<[unknown, number]> = [[value, 0]];
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    const [v, depth] = item;
    if (typeof v === 'number' && !Number.isFinite(v)) throw new YAMLConversionError(`json: unsupported value: ${v > 0 ? '+Inf' : v < 0 ? '-Inf' : 'NaN'}`);
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= maxDepth) throw new YAMLConversionError('yaml: exceeded max depth');
    for (const child of Object.values(v)) work.push([child, depth + 1]);
  }
}

function firstSentence(message: string): string {
  return message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '') ?? message;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? firstSentence(err.message) : String(err);
}
