/**
 * The fieldsV1 form of a Set (serialize.go): a JSON object per level whose
 * keys are serialized path elements in path element order; `{}` marks a
 * member, an object with children marks a parent, and `".": {}` first in it
 * marks a parent that is also a member. Readers and writers are iterative
 * so a deep set cannot exhaust the call stack.
 */
import { MAX_NESTING_DEPTH } from '../../serializer/json-scan.js';
import { isJSONObject, setField } from '../../serializer/jsonvalue.js';
import { goJSONString } from '../value/json.js';
import { comparePathElements, type PathElement } from './element.js';
import { PathElementSet } from './pathelementset.js';
import { deserializePathElement, errUnknownPathElementType, parseJSONText, serializePathElement } from './serialize-pe.js';
import type { Set, SetNode } from './set.js';
import type { MakeSet } from './set-walk.js';

/** One entry of a level in output order: a member, a parent, or both. */
interface Entry {
  readonly key: string;
  readonly child: Set | undefined;
  /** Written as `".":{}` first in the child's object: a member whose subset has direct members or children (as SMD's writer checks). */
  readonly self: boolean;
}

/** The entries of one level, members and children merged in path element order. */
function entries(s: Set): Entry[] {
  const members = s.members.members;
  const children = s.children.members;
  const out: Entry[] = [];
  let mi = 0;
  let ci = 0;
  while (mi < members.length || ci < children.length) {
    const c = mi >= members.length ? 1 : ci >= children.length ? -1 : comparePathElements(members[mi]!, children[ci]!.pathElement);
    if (c < 0) out.push({ key: serializePathElement(members[mi++]!), child: undefined, self: false });
    else {
      const node = children[ci++]!;
      const self = c === 0 && (node.set.members.size() > 0 || node.set.children.members.length > 0);
      out.push({ key: serializePathElement(node.pathElement), child: node.set, self });
      if (c === 0) mi++;
    }
  }
  return out;
}

/** The fieldsV1 object of a set. */
export function writeFieldsV1(set: Set): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  const work: Array<[Set, Record<string, unknown>]> = [[set, root]];
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    const [s, into] = item;
    for (const e of entries(s)) {
      const obj: Record<string, unknown> = {};
      setField(into, e.key, obj);
      if (e.child === undefined) continue;
      if (e.self) obj['.'] = {};
      work.push([e.child, obj]);
    }
  }
  return root;
}

/** A level being written: its entries, the next one, and whether one was written already. */
interface Frame {
  readonly level: Entry[];
  next: number;
  comma: boolean;
}

/** SMD's ToJSON text of a set. */
export function writeFieldsV1JSON(set: Set): string {
  let out = '{';
  const stack: Frame[] = [{ level: entries(set), next: 0, comma: false }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    // Bounds checked first: reading past an array's end is V8's slow path.
    if (top.next >= top.level.length) {
      out += '}';
      stack.pop();
      continue;
    }
    const e = top.level[top.next++]!;
    out += `${top.comma ? ',' : ''}${goJSONString(e.key)}:{`;
    top.comma = true;
    if (e.child === undefined) {
      out += '}';
      continue;
    }
    if (e.self) out += '".":{}';
    stack.push({ level: entries(e.child), next: 0, comma: e.self });
  }
  return out;
}

/** FromJSON of fieldsV1 text: Go's syntax rules and wording (trailing data, depth), then the decoded reader. */
export function readFieldsV1JSON(text: string | Uint8Array, makeSet: MakeSet): Set {
  return readFieldsV1(parseJSONText(typeof text === 'string' ? text : Buffer.from(text.buffer, text.byteOffset, text.byteLength).toString('utf8')), makeSet);
}

/** A pending level of the reader: its object, the set being built, and where the result goes. */
interface Pending {
  readonly obj: Record<string, unknown>;
  readonly depth: number;
  readonly members: PathElement[];
  readonly children: SetNode[];
  isMember: boolean;
  readonly parent: Pending | undefined;
  readonly pe: PathElement | undefined;
}

/**
 * FromJSON of a decoded fieldsV1 object. Keys of an unknown kind are
 * dropped; a level holding no known keys is a member; `null` reads as an
 * empty level. Throws on a value that is neither an object nor null, on a
 * malformed key, and past MAX_NESTING_DEPTH levels (jsoniter's limit).
 */
export function readFieldsV1(v: unknown, makeSet: MakeSet): Set {
  if (v === null) return makeSet(new PathElementSet(), []);
  const rootObj = levelObject(v);
  const root: Pending = { obj: rootObj, depth: 1, members: [], children: [], isMember: false, parent: undefined, pe: undefined };
  // Post-order: a level is finished (and attached to its parent) after all its children.
  const order: Pending[] = [];
  const work: Pending[] = [root];
  for (let p = work.pop(); p !== undefined; p = work.pop()) {
    order.push(p);
    for (const key of Object.keys(p.obj)) {
      if (key === '.') {
        p.isMember = true;
        continue;
      }
      const pe = parseKey(key);
      if (pe === undefined) continue;
      const childValue = p.obj[key];
      if (p.depth >= MAX_NESTING_DEPTH) throw new Error('exceeded max depth');
      const childObj = childValue === null ? {} : levelObject(childValue);
      work.push({ obj: childObj, depth: p.depth + 1, members: [], children: [], isMember: false, parent: p, pe });
    }
  }
  for (let i = order.length - 1; i > 0; i--) finish(order[i]!, makeSet);
  return makeSet(sortedMembers(root.members), sortedNodes(root.children));
}

function levelObject(v: unknown): Record<string, unknown> {
  if (!isJSONObject(v)) throw new Error(`ReadMapCB: expect { or n, but found ${describe(v)}`);
  return v;
}

function describe(v: unknown): string {
  if (Array.isArray(v)) return '[';
  if (typeof v === 'string') return '"';
  return String(v).slice(0, 1);
}

function parseKey(key: string): PathElement | undefined {
  try {
    return deserializePathElement(key);
  } catch (err) {
    if (err === errUnknownPathElementType) return undefined;
    throw new Error(`parsing key as path element: ${(err as Error).message}`, { cause: err });
  }
}

/** Attaches a finished child level to its parent: as a member when it has no children, else as a subset. */
function finish(p: Pending, makeSet: MakeSet): void {
  const parent = p.parent;
  const pe = p.pe;
  if (parent === undefined || pe === undefined) return;
  const hasChildren = p.members.length > 0 || p.children.length > 0;
  if (p.isMember || !hasChildren) parent.members.push(pe);
  if (hasChildren) parent.children.push({ pathElement: pe, set: makeSet(sortedMembers(p.members), sortedNodes(p.children)) });
}

/**
 * Members in key order, sorted and deduplicated: a writer's output is
 * already in path element order, other producers' may not be.
 */
function sortedMembers(pes: PathElement[]): PathElementSet {
  if (isStrictlySorted(pes, (x) => x)) return new PathElementSet(pes);
  const out = new PathElementSet();
  for (const pe of pes) out.insert(pe);
  return out;
}

function sortedNodes(nodes: SetNode[]): SetNode[] {
  if (isStrictlySorted(nodes, (n) => n.pathElement)) return nodes;
  nodes.sort((a, b) => comparePathElements(a.pathElement, b.pathElement));
  // Two keys naming the same element (`k:{"a":1,"b":2}` and `k:{"b":2,"a":1}`): the later one wins, as SMD's Descend-and-replace does.
  const out: SetNode[] = [];
  for (const n of nodes) {
    if (out.length > 0 && comparePathElements(out[out.length - 1]!.pathElement, n.pathElement) === 0) out[out.length - 1] = n;
    else out.push(n);
  }
  return out;
}

function isStrictlySorted<T>(items: readonly T[], pe: (t: T) => PathElement): boolean {
  for (let i = 1; i < items.length; i++) if (comparePathElements(pe(items[i - 1]!), pe(items[i]!)) >= 0) return false;
  return true;
}
