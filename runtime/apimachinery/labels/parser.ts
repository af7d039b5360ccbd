import { InvalidSelectorError, Requirement, type Operator } from './requirement.js';
import { selectorFromRequirements, type Selector } from './selector.js';
import { quote } from '../util/strconv.js';
import { isQualifiedName } from './validation.js';

/**
 * The label selector grammar of k8s.io/apimachinery/pkg/labels (selector.go):
 *
 *   selector      = requirement ("," requirement)*
 *   requirement   = ["!"] KEY [ set_op "(" values ")" | exact_op VALUE | cmp_op INT ]
 *   set_op        = "in" | "notin";  exact_op = "=" | "==" | "!=";  cmp_op = ">" | "<"
 *
 * A bare KEY means "exists", "!KEY" means "does not exist". Whitespace separates tokens.
 */

type Token = 'error' | 'eos' | 'closedPar' | 'comma' | 'doesNotExist' | 'doubleEquals' | 'equals' | 'greaterThan' | 'identifier' | 'in' | 'lessThan' | 'notEquals' | 'notIn' | 'openPar';

const string2token: ReadonlyMap<string, Token> = new Map([
  [')', 'closedPar'],
  [',', 'comma'],
  ['!', 'doesNotExist'],
  ['==', 'doubleEquals'],
  ['=', 'equals'],
  ['>', 'greaterThan'],
  ['in', 'in'],
  ['<', 'lessThan'],
  ['!=', 'notEquals'],
  ['notin', 'notIn'],
  ['(', 'openPar'],
]);

interface Scanned {
  tok: Token;
  lit: string;
}

const isWhitespace = (ch: string): boolean => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
const isSpecialSymbol = (ch: string): boolean => '=!(),><'.includes(ch) && ch.length === 1;

class Lexer {
  private pos = 0;
  constructor(private readonly s: string) {}

  private read(): string {
    if (this.pos < this.s.length) return this.s[this.pos++] ?? '';
    // Mirror Go: reading past the end still advances, so a later unread is balanced.
    this.pos++;
    return '';
  }

  private unread(): void {
    this.pos--;
  }

  private scanIdOrKeyword(): Scanned {
    let buf = '';
    for (;;) {
      const ch = this.read();
      if (ch === '') break;
      if (isSpecialSymbol(ch) || isWhitespace(ch)) {
        this.unread();
        break;
      }
      buf += ch;
    }
    const tok = string2token.get(buf);
    return tok ? { tok, lit: buf } : { tok: 'identifier', lit: buf };
  }

  private scanSpecialSymbol(): Scanned {
    let last: Scanned | undefined;
    let buf = '';
    for (;;) {
      const ch = this.read();
      if (ch === '') break;
      if (isSpecialSymbol(ch)) {
        buf += ch;
        const tok = string2token.get(buf);
        if (tok) {
          last = { tok, lit: buf };
        } else if (last) {
          this.unread();
          break;
        }
      } else {
        this.unread();
        break;
      }
    }
    return last ?? { tok: 'error', lit: `error expected: keyword found '${buf}'` };
  }

  lex(): Scanned {
    let ch = this.read();
    while (isWhitespace(ch)) ch = this.read();
    if (ch === '') return { tok: 'eos', lit: '' };
    this.unread();
    return isSpecialSymbol(ch) ? this.scanSpecialSymbol() : this.scanIdOrKeyword();
  }
}

type Context = 'keyAndOperator' | 'values';

class Parser {
  private readonly items: Scanned[] = [];
  private position = 0;

  constructor(input: string) {
    const lexer = new Lexer(input);
    for (;;) {
      const item = lexer.lex();
      this.items.push(item);
      if (item.tok === 'eos') break;
    }
  }

  // In a values context "in" and "notin" are plain identifiers (e.g. `x=in`).
  private adjust(item: Scanned, ctx: Context): Scanned {
    if (ctx === 'values' && (item.tok === 'in' || item.tok === 'notIn')) return { tok: 'identifier', lit: item.lit };
    return item;
  }

  private lookahead(ctx: Context): Scanned {
    return this.adjust(this.items[this.position] ?? { tok: 'eos', lit: '' }, ctx);
  }

  private consume(ctx: Context): Scanned {
    const item = this.items[this.position] ?? { tok: 'eos', lit: '' };
    this.position++;
    return this.adjust(item, ctx);
  }

  parse(): Requirement[] {
    const reqs: Requirement[] = [];
    for (;;) {
      const { tok, lit } = this.lookahead('values');
      switch (tok) {
        case 'identifier':
        case 'doesNotExist': {
          let r: Requirement;
          try {
            r = this.parseRequirement();
          } catch (e) {
            throw new InvalidSelectorError(`unable to parse requirement: ${(e as Error).message}`);
          }
          reqs.push(r);
          const next = this.consume('values');
          if (next.tok === 'eos') return reqs;
          if (next.tok === 'comma') {
            const after = this.lookahead('values');
            if (after.tok !== 'identifier' && after.tok !== 'doesNotExist') {
              throw new InvalidSelectorError(`found '${after.lit}', expected: identifier after ','`);
            }
            break;
          }
          throw new InvalidSelectorError(`found '${next.lit}', expected: ',' or 'end of string'`);
        }
        case 'eos':
          return reqs;
        default:
          throw new InvalidSelectorError(`found '${lit}', expected: !, identifier, or 'end of string'`);
      }
    }
  }

  private parseRequirement(): Requirement {
    const { key, operator } = this.parseKeyAndInferOperator();
    if (operator === 'exists' || operator === '!') return Requirement.create(key, operator, []);
    const op = this.parseOperator();
    const values = op === 'in' || op === 'notin' ? this.parseValues() : this.parseExactValue();
    return Requirement.create(key, op, [...values].sort());
  }

  private parseKeyAndInferOperator(): { key: string; operator: Operator | undefined } {
    let operator: Operator | undefined;
    let item = this.consume('values');
    if (item.tok === 'doesNotExist') {
      operator = '!';
      item = this.consume('values');
    }
    if (item.tok !== 'identifier') throw new Error(`found '${item.lit}', expected: identifier`);
    const errs = isQualifiedName(item.lit);
    // validateLabelKey's field.Error, whose path (the parser's, nil for a server-side Parse) prints as <nil>.
    if (errs.length > 0) throw new Error(`<nil>: Invalid value: ${quote(item.lit)}: ${errs.join('; ')}`);
    const next = this.lookahead('values').tok;
    if ((next === 'eos' || next === 'comma') && operator !== '!') operator = 'exists';
    return { key: item.lit, operator };
  }

  private parseOperator(): Operator {
    const { tok, lit } = this.consume('keyAndOperator');
    switch (tok) {
      case 'in':
        return 'in';
      case 'equals':
        return '=';
      case 'doubleEquals':
        return '==';
      case 'greaterThan':
        return 'gt';
      case 'lessThan':
        return 'lt';
      case 'notIn':
        return 'notin';
      case 'notEquals':
        return '!=';
      default:
        throw new Error(`found '${lit}', expected: in, notin, =, ==, !=, gt, lt`);
    }
  }

  private parseValues(): Set<string> {
    const open = this.consume('values');
    if (open.tok !== 'openPar') throw new Error(`found '${open.lit}' expected: '('`);
    const { tok, lit } = this.lookahead('values');
    if (tok === 'identifier' || tok === 'comma') {
      const s = this.parseIdentifiersList();
      if (this.consume('values').tok !== 'closedPar') throw new Error(`found '${lit}', expected: ')'`);
      return s;
    }
    if (tok === 'closedPar') {
      this.consume('values');
      return new Set(['']);
    }
    throw new Error(`found '${lit}', expected: ',', ')' or identifier`);
  }

  private parseIdentifiersList(): Set<string> {
    const s = new Set<string>();
    for (;;) {
      const { tok, lit } = this.consume('values');
      if (tok === 'identifier') {
        s.add(lit);
        const next = this.lookahead('values');
        if (next.tok === 'comma') continue;
        if (next.tok === 'closedPar') return s;
        throw new Error(`found '${next.lit}', expected: ',' or ')'`);
      } else if (tok === 'comma') {
        if (s.size === 0) s.add('');
        const next = this.lookahead('values').tok;
        if (next === 'closedPar') {
          s.add('');
          return s;
        }
        if (next === 'comma') s.add('');
      } else {
        throw new Error(`found '${lit}', expected: ',', or identifier`);
      }
    }
  }

  private parseExactValue(): Set<string> {
    const next = this.lookahead('values').tok;
    if (next === 'eos' || next === 'comma') return new Set(['']);
    const { tok, lit } = this.consume('values');
    if (tok === 'identifier') return new Set([lit]);
    throw new Error(`found '${lit}', expected: identifier`);
  }
}

/**
 * Parse turns a label selector string into a Selector, requirements sorted by key.
 * Throws InvalidSelectorError (the REST layer answers 400) when it does not parse.
 */
export function parse(selector: string): Selector {
  return selectorFromRequirements(new Parser(selector).parse());
}

/** ParseToRequirements: the parsed requirements in key order. */
export function parseToRequirements(selector: string): readonly Requirement[] {
  return parse(selector).requirements().requirements;
}
