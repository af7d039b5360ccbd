import { fieldsFromSet, type Fields, type Set } from './fields.js';

/** Field selector operators; `==` parses to `=`. */
export type Operator = '=' | '!=';

export interface Requirement {
  readonly field: string;
  readonly operator: Operator;
  readonly value: string;
}

/** Rewrites one term; returning an empty field and value drops the term (matches everything). */
export type TransformFunc = (field: string, value: string) => { field: string; value: string };

/** Thrown for field selectors that do not parse; the REST layer maps it to 400. */
export class InvalidFieldSelectorError extends Error {
  override readonly name = 'InvalidFieldSelectorError';
}

/**
 * Selector as k8s.io/apimachinery/pkg/fields.Selector: an AND of `field=value` and
 * `field!=value` terms. Immutable.
 */
export interface Selector {
  matches(fields: Fields): boolean;
  matchesSet(set: Set | undefined | null): boolean;
  empty(): boolean;
  /** The value the selector forces `field` to have, if it forces one. */
  requiresExactMatch(field: string): string | undefined;
  transform(fn: TransformFunc): Selector;
  requirements(): readonly Requirement[];
  toString(): string;
}

/** EscapeValue: `\` → `\\`, `,` → `\,`, `=` → `\=`. */
export function escapeValue(s: string): string {
  return s.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/** UnescapeValue: inverse of escapeValue; a bare `,` or `=`, or an unknown escape, is an error. */
export function unescapeValue(s: string): string {
  if (!/[\\,=]/.test(s)) return s;
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') {
        throw new InvalidFieldSelectorError(`invalid field selector: invalid escape sequence: \\${c}`);
      }
      out += c;
      inSlash = false;
      continue;
    }
    if (c === '\\') inSlash = true;
    else if (c === ',' || c === '=') {
      throw new InvalidFieldSelectorError(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    } else out += c;
  }
  if (inSlash) throw new InvalidFieldSelectorError('invalid field selector: invalid escape sequence: \\');
  return out;
}

abstract class BaseSelector implements Selector {
  abstract matches(fields: Fields): boolean;
  abstract empty(): boolean;
  abstract requiresExactMatch(field: string): string | undefined;
  abstract transform(fn: TransformFunc): Selector;
  abstract requirements(): readonly Requirement[];
  abstract toString(): string;
  matchesSet(set: Set | undefined | null): boolean {
    return this.matches(fieldsFromSet(set));
  }
}

class HasTerm extends BaseSelector {
  constructor(
    readonly field: string,
    readonly value: string,
  ) {
    super();
  }
  matches(fs: Fields): boolean {
    return fs.get(this.field) === this.value;
  }
  empty(): boolean {
    return false;
  }
  requiresExactMatch(field: string): string | undefined {
    return field === this.field ? this.value : undefined;
  }
  transform(fn: TransformFunc): Selector {
    const { field, value } = fn(this.field, this.value);
    return field === '' && value === '' ? everything() : new HasTerm(field, value);
  }
  requirements(): readonly Requirement[] {
    return [{ field: this.field, operator: '=', value: this.value }];
  }
  toString(): string {
    return `${this.field}=${escapeValue(this.value)}`;
  }
}

class NotHasTerm extends BaseSelector {
  constructor(
    readonly field: string,
    readonly value: string,
  ) {
    super();
  }
  matches(fs: Fields): boolean {
    return fs.get(this.field) !== this.value;
  }
  empty(): boolean {
    return false;
  }
  requiresExactMatch(): string | undefined {
    return undefined;
  }
  transform(fn: TransformFunc): Selector {
    const { field, value } = fn(this.field, this.value);
    return field === '' && value === '' ? everything() : new NotHasTerm(field, value);
  }
  requirements(): readonly Requirement[] {
    return [{ field: this.field, operator: '!=', value: this.value }];
  }
  toString(): string {
    return `${this.field}!=${escapeValue(this.value)}`;
  }
}

class AndTerm extends BaseSelector {
  constructor(readonly terms: readonly Selector[]) {
    super();
  }
  matches(fs: Fields): boolean {
    for (const t of this.terms) if (!t.matches(fs)) return false;
    return true;
  }
  override matchesSet(set: Set | undefined | null): boolean {
    return this.terms.length === 0 || this.matches(fieldsFromSet(set));
  }
  empty(): boolean {
    return this.terms.every((t) => t.empty());
  }
  requiresExactMatch(field: string): string | undefined {
    for (const t of this.terms) {
      const v = t.requiresExactMatch(field);
      if (v !== undefined) return v;
    }
    return undefined;
  }
  transform(fn: TransformFunc): Selector {
    return new AndTerm(this.terms.map((t) => t.transform(fn)).filter((t) => !t.empty()));
  }
  requirements(): readonly Requirement[] {
    return this.terms.flatMap((t) => t.requirements());
  }
  toString(): string {
    return this.terms.map((t) => t.toString()).join(',');
  }
}

class NothingSelector extends BaseSelector {
  matches(): boolean {
    return false;
  }
  empty(): boolean {
    return false;
  }
  requiresExactMatch(): string | undefined {
    return undefined;
  }
  transform(): Selector {
    return this;
  }
  requirements(): readonly Requirement[] {
    return [];
  }
  toString(): string {
    return '';
  }
}

const everythingSelector: Selector = new AndTerm([]);
const nothingSelector: Selector = new NothingSelector();

export function everything(): Selector {
  return everythingSelector;
}

export function nothing(): Selector {
  return nothingSelector;
}

/** SelectorFromSet: `field=value` for every entry. */
export function selectorFromSet(set: Set | undefined | null): Selector {
  if (!set) return everythingSelector;
  const items = Object.keys(set).map((f) => new HasTerm(f, set[f] ?? ''));
  return items.length === 1 ? (items[0] as Selector) : new AndTerm(items);
}

export function oneTermEqualSelector(field: string, value: string): Selector {
  return new HasTerm(field, value);
}

export function oneTermNotEqualSelector(field: string, value: string): Selector {
  return new NotHasTerm(field, value);
}

export function andSelectors(...selectors: Selector[]): Selector {
  return new AndTerm(selectors);
}

function splitTerms(selector: string): string[] {
  if (selector.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms;
}

const termOperators = ['!=', '==', '='] as const;

function splitTerm(term: string): { lhs: string; op: (typeof termOperators)[number]; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of termOperators) {
      if (term.startsWith(op, i)) return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
    }
  }
  return undefined;
}

/**
 * ParseSelector: comma-separated `f=v`, `f==v`, `f!=v` terms (values escaped with `\`),
 * optionally rewritten by `transform`. Throws InvalidFieldSelectorError.
 */
export function parseSelector(selector: string, transform?: TransformFunc): Selector {
  const parts = splitTerms(selector).sort();
  const items: Selector[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const t = splitTerm(part);
    if (!t) throw new InvalidFieldSelectorError(`invalid selector: '${selector}'; can't understand '${part}'`);
    const value = unescapeValue(t.rhs);
    items.push(t.op === '!=' ? new NotHasTerm(t.lhs, value) : new HasTerm(t.lhs, value));
  }
  const sel: Selector = items.length === 1 ? (items[0] as Selector) : new AndTerm(items);
  return transform ? sel.transform(transform) : sel;
}

/** ParseSelectorOrDie, for constants in code and tests. */
export function parseSelectorOrDie(selector: string): Selector {
  return parseSelector(selector);
}
