import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JSONSchemaProps } from '../../apis/apiextensions/v1/schema.js';
import { compileRule } from '../../runtime/apimachinery/cel/index.js';
import { displayErrors } from '../../runtime/apimachinery/cel/errors.js';
import { int, object, str } from './helpers.js';

/**
 * Compile errors as Kubernetes 1.32 words them: cel-go v0.22.0's Issues.String() after
 * "compilation failed: ". How each expected string was obtained:
 *
 * - [upstream]: the answer of a kube-apiserver to the same rule (the differential probe's
 *   results.json, requests #7, #8, #9; schema: spec.size integer).
 * - [source]: derived by hand from cel-go v0.22.0: the message from checker/errors.go,
 *   parser/errors.go, parser/parser.go (reserved identifiers) or parser/macro.go; the position
 *   from the token parser.go makes the node's id from (operator, '.', '[', '(' of a call, an
 *   identifier or literal's own start); the frame from common/error.go ToDisplayString (1-based
 *   column, '.' per code point before it, U+FF0E for a multi-byte one, tabs as spaces) and
 *   common/errors.go (sorted by position, joined by newlines); types from checker/format.go
 *   FormatCELType; ANTLR texts from the Go runtime 4.13.0 (BaseLexer.notifyListeners,
 *   DefaultErrorStrategy.ReportInputMismatch) with CEL.g4's token names.
 */
const schema = object({
  spec: object({
    size: int,
    name: str,
    items: { type: 'array', items: str },
    objs: { type: 'array', items: object({ a: str }) },
    m: { type: 'object', additionalProperties: int },
  }),
});
const compile = (rule: string, on: JSONSchemaProps = schema): string[] => compileRule({ rule }, on, { isResourceRoot: true }).map((p) => p.message);

const OPERAND = "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";

const rows: ReadonlyArray<readonly [rule: string, expected: string, how: string]> = [
  // [upstream] #8
  ['self.spec.nosuch == 1', "ERROR: <input>:1:10: undefined field 'nosuch'\n | self.spec.nosuch == 1\n | .........^", 'upstream'],
  // [upstream] #9
  ['self.spec.size == "x"', "ERROR: <input>:1:16: found no matching overload for '_==_' applied to '(int, string)'\n | self.spec.size == \"x\"\n | ...............^", 'upstream'],
  // [upstream] #7
  ['self.spec.size >', `ERROR: <input>:1:17: Syntax error: mismatched input '<EOF>' expecting ${OPERAND}\n | self.spec.size >\n | ................^`, 'upstream'],
  // [source] the same class after other binary operators and the conditional's '?' and ':'
  ['self.spec.size > 1 &&', `ERROR: <input>:1:22: Syntax error: mismatched input '<EOF>' expecting ${OPERAND}\n | self.spec.size > 1 &&\n | .....................^`, 'source'],
  ['self.spec.size ? 1 : ', `ERROR: <input>:1:22: Syntax error: mismatched input '<EOF>' expecting ${OPERAND}\n | self.spec.size ? 1 : \n | .....................^`, 'source'],
  // [source] EOF on a line of its own: line 3, an empty snippet (runes.NewBufferAndLineOffsets)
  ['self.spec.size\n  >\t\n', `ERROR: <input>:3:1: Syntax error: mismatched input '<EOF>' expecting ${OPERAND}\n | \n | ^`, 'source'],
  // [source] checker.go checkIdent
  ['nosuch', "ERROR: <input>:1:1: undeclared reference to 'nosuch' (in container '')\n | nosuch\n | ^", 'source'],
  // [source] checker.go checkCall: a function no overload of which is declared; position the '('
  ['foo(1)', "ERROR: <input>:1:4: undeclared reference to 'foo' (in container '')\n | foo(1)\n | ...^", 'source'],
  ['self.spec.name.nosuch()', "ERROR: <input>:1:22: undeclared reference to 'nosuch' (in container '')\n | self.spec.name.nosuch()\n | .....................^", 'source'],
  // [source] noMatchingOverload: a member call prints the receiver type before '.'
  [
    'self.spec.name.startsWith(1)',
    "ERROR: <input>:1:26: found no matching overload for 'startsWith' applied to 'string.(int)'\n | self.spec.name.startsWith(1)\n | .........................^",
    'source',
  ],
  ['int(self.spec.items) == 1', "ERROR: <input>:1:4: found no matching overload for 'int' applied to '(list(string))'\n | int(self.spec.items) == 1\n | ...^", 'source'],
  ['self.spec.m == 1', "ERROR: <input>:1:13: found no matching overload for '_==_' applied to '(map(string, int), int)'\n | self.spec.m == 1\n | ............^", 'source'],
  ['!self.spec.size', "ERROR: <input>:1:1: found no matching overload for '!_' applied to '(int)'\n | !self.spec.size\n | ^", 'source'],
  ['1 in 1', "ERROR: <input>:1:3: found no matching overload for '@in' applied to '(int, int)'\n | 1 in 1\n | ..^", 'source'],
  ['self.spec.items[1.0] == ""', "ERROR: <input>:1:16: found no matching overload for '_[_]' applied to '(list(string), double)'\n | self.spec.items[1.0] == \"\"\n | ...............^", 'source'],
  [
    'self.spec.size > 1 ? 1 : "a"',
    "ERROR: <input>:1:20: found no matching overload for '_?_:_' applied to '(bool, int, string)'\n | self.spec.size > 1 ? 1 : \"a\"\n | ...................^",
    'source',
  ],
  ['(1 ? true : false)', "ERROR: <input>:1:4: found no matching overload for '_?_:_' applied to '(int, bool, bool)'\n | (1 ? true : false)\n | ...^", 'source'],
  // [source] checkSelectField: a scalar has no fields; position the '.'
  ['self.spec.size.x', "ERROR: <input>:1:15: type 'int' does not support field selection\n | self.spec.size.x\n | ..............^", 'source'],
  // [source] resolveOverload for _&&_/_||_: every non-bool operand, at the operand; sorted by position
  ['1 || 2', "ERROR: <input>:1:1: expected type 'bool' but found 'int'\n | 1 || 2\n | ^\nERROR: <input>:1:6: expected type 'bool' but found 'int'\n | 1 || 2\n | .....^", 'source'],
  // [source] checkComprehension: the range's position (the '.' of self.spec.size)
  [
    'self.spec.size.all(x, x)',
    "ERROR: <input>:1:10: expression of type 'int' cannot be range of a comprehension (must be list, map, or dynamic)\n | self.spec.size.all(x, x)\n | .........^",
    'source',
  ],
  // [source] inside a comprehension; a parenthesized operand's selection is at its '.'
  ['self.spec.objs.all(o, o.nosuch == "")', 'ERROR: <input>:1:24: undefined field \'nosuch\'\n | self.spec.objs.all(o, o.nosuch == "")\n | .......................^', 'source'],
  ['(self.spec).nosuch', "ERROR: <input>:1:12: undefined field 'nosuch'\n | (self.spec).nosuch\n | ...........^", 'source'],
  // [source] parser/macro.go
  ['has(1)', 'ERROR: <input>:1:5: invalid argument to has() macro\n | has(1)\n | ....^', 'source'],
  ['self.spec.items.all(1, true)', 'ERROR: <input>:1:21: argument must be a simple name\n | self.spec.items.all(1, true)\n | ....................^', 'source'],
  ['self.spec.items.map(1, 1) == []', 'ERROR: <input>:1:21: argument is not an identifier\n | self.spec.items.map(1, 1) == []\n | ....................^', 'source'],
  // [source] parser.go VisitIdentOrGlobalCall
  ['package', 'ERROR: <input>:1:1: reserved identifier: package\n | package\n | ^', 'source'],
  // [source] the ANTLR lexer reports a character no token starts with and skips it
  [
    'self.spec.size > 1 $ @',
    "ERROR: <input>:1:20: Syntax error: token recognition error at: '$'\n | self.spec.size > 1 $ @\n | ...................^\nERROR: <input>:1:22: Syntax error: token recognition error at: '@'\n | self.spec.size > 1 $ @\n | .....................^",
    'source',
  ],
  // [source] cel.ValidateRegexLiterals, at the literal
  ["self.spec.name.matches('(')", "ERROR: <input>:1:24: invalid matches argument\n | self.spec.name.matches('(')\n | .......................^", 'source'],
  // [source] code points: a multi-byte character before the column is a wide dot; a tab is a space
  ["'é' + self.spec.nosuch == ''", "ERROR: <input>:1:16: undefined field 'nosuch'\n | 'é' + self.spec.nosuch == ''\n | .\uff0e.............^", 'source'],
  ['\tself.spec.size == "x"', "ERROR: <input>:1:17: found no matching overload for '_==_' applied to '(int, string)'\n |  self.spec.size == \"x\"\n | ................^", 'source'],
  // [source] a later line: the column counts from the line's start
  ['self.spec.size == 1 &&\n  self.spec.nosuch', "ERROR: <input>:2:12: undefined field 'nosuch'\n |   self.spec.nosuch\n | ...........^", 'source'],
];

describe('compile errors in cel-go v0.22.0 words', () => {
  for (const [rule, expected, how] of rows) {
    test(`${JSON.stringify(rule)} (${how})`, () => {
      assert.deepEqual(compile(rule), [expected]);
    });
  }

  test("the CRD's object types as kube names them (selfType<nanoseconds>, .@idx for list items)", () => {
    const [spec] = compile('self.spec == 1');
    assert.match(spec!, /^ERROR: <input>:1:11: found no matching overload for '_==_' applied to '\(selfType\d+\.spec, int\)'\n \| self\.spec == 1\n \| \.{10}\^$/);
    const [item] = compile('self.spec.objs[0] == 1');
    assert.match(item!, /applied to '\(selfType\d+\.spec\.objs\.@idx, int\)'/);
  });

  test('errors whose cel-go text is not known keep the compiler text, framed at its position', () => {
    assert.deepEqual(compile('1 +* 2'), ['ERROR: <input>:1:4: Unexpected token: MULTIPLY\n | 1 +* 2\n | ...^']);
  });
});

describe('displayErrors (common.Errors.ToDisplayString)', () => {
  test('no location: line -1, column 0, no snippet', () => {
    assert.equal(displayErrors('a', [{ offset: undefined, message: 'expression recursion limit exceeded: 250' }]), 'ERROR: <input>:-1:0: expression recursion limit exceeded: 250');
  });
  test('a wide caret under a multi-byte character; astral characters are one code point', () => {
    assert.equal(displayErrors('"😀" ü', [{ offset: 4, message: 'm' }]), 'ERROR: <input>:1:5: m\n | "😀" ü\n | .\uff0e..\uff3e');
  });
  test('hostile keys are data', () => {
    assert.deepEqual(compile('self.__proto__ == 1'), ["ERROR: <input>:1:5: undefined field '__proto__'\n | self.__proto__ == 1\n | ....^"]);
    assert.deepEqual(compile('constructor(1)'), ["ERROR: <input>:1:12: undeclared reference to 'constructor' (in container '')\n | constructor(1)\n | ...........^"]);
  });
});
