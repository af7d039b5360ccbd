/**
 * Runtime cost of CEL evaluation, in the apiserver's units: every evaluation step costs one,
 * functions that traverse strings, lists or maps add a share of their size
 * (k8s.io/apiserver/pkg/cel/library/cost.go, cel-go's runtime cost). The figures are close to
 * kube's, not equal: they bound work, so a rule cannot run away with the server.
 */

/** celconfig.PerCallLimit: one rule or messageExpression evaluation. */
export const PER_CALL_LIMIT = 1_000_000;
/** celconfig.RuntimeCELCostBudget: every rule of one request together. */
export const RUNTIME_COST_BUDGET = 10_000_000;

const STRING_TRAVERSAL_FACTOR = 0.1;
const REGEX_LENGTH_FACTOR = 0.25;

/** Elements of a string, bytes, list or map; 1 for anything else (actualSize). */
export function sizeOf(v: unknown): number {
  if (typeof v === 'string') return v.length;
  if (v instanceof Uint8Array || Array.isArray(v)) return v.length;
  if (v instanceof Set || v instanceof Map) return v.size;
  return 1;
}

/** traversalCost: a tenth of each string's length, summed over lists and maps. */
export function traversalCost(v: unknown): number {
  if (typeof v === 'string' || v instanceof Uint8Array) return Math.floor(v.length * STRING_TRAVERSAL_FACTOR);
  if (Array.isArray(v) || v instanceof Set) {
    let cost = 0;
    for (const item of v) cost += traversalCost(item);
    return cost;
  }
  if (v instanceof Map) {
    let cost = 0;
    for (const [k, item] of v) cost += traversalCost(k) + traversalCost(item);
    return cost;
  }
  return 1;
}

function stringCost(v: unknown, factor = 1): number {
  return Math.ceil(sizeOf(v) * factor * STRING_TRAVERSAL_FACTOR);
}

function regexCost(str: unknown, pattern: unknown): number {
  return Math.ceil((1 + sizeOf(str)) * STRING_TRAVERSAL_FACTOR) * Math.ceil(sizeOf(pattern) * REGEX_LENGTH_FACTOR);
}

/**
 * The cost a function call adds to its step. `args` starts with the receiver for method calls,
 * as the apiserver's CallCost sees them.
 */
export function callCost(name: string, args: readonly unknown[], result: unknown): number {
  switch (name) {
    case 'isSorted':
    case 'sum':
    case 'max':
    case 'min':
    case 'indexOf':
    case 'lastIndexOf':
      return traversalCost(args[0]);
    case 'url':
    case 'isURL':
    case 'lowerAscii':
    case 'upperAscii':
    case 'substring':
    case 'trim':
    case 'charAt':
    case 'quantity':
    case 'isQuantity':
    case 'contains':
    case 'startsWith':
    case 'endsWith':
    case 'ip':
    case 'isIP':
    case 'cidr':
    case 'isCIDR':
      return stringCost(args[0]);
    case 'isCanonical':
      return stringCost(args[1], 2);
    case 'containsIP':
    case 'containsCIDR':
      return stringCost(args[1]) + 1;
    case 'replace':
    case 'split':
      return stringCost(args[0], 2) + stringCost(result);
    case 'join':
      return stringCost(result, 2);
    case 'find':
    case 'findAll':
    case 'matches':
      return regexCost(args[0], args[1]);
    default:
      return 0;
  }
}

/** The cost a binary operator adds: concatenation builds its result, comparisons traverse. */
export function operatorCost(op: string, left: unknown, right: unknown, result: unknown): number {
  switch (op) {
    case '+':
      return typeof result === 'string' || result instanceof Uint8Array || Array.isArray(result) ? stringCost(result) : 0;
    case '==':
    case '!=':
    case '<':
    case '<=':
    case '>':
    case '>=':
      return typeof left === 'object' || typeof left === 'string' ? Math.ceil(Math.min(sizeOf(left), sizeOf(right)) * STRING_TRAVERSAL_FACTOR) : 0;
    case 'in':
      return Array.isArray(right) ? sizeOf(right) : 0;
    default:
      return 0;
  }
}
