import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { evaluate, evaluationError } from './helpers.js';

/** Each row: expression → expected value (deep equal), as kube's library tests state them. */
function table(rows: ReadonlyArray<readonly [string, unknown]>): void {
  for (const [expr, want] of rows) {
    test(expr, () => assert.deepEqual(evaluate(expr), want));
  }
}

function failures(rows: ReadonlyArray<readonly [string, string | RegExp]>): void {
  for (const [expr, want] of rows) {
    test(`${expr} fails`, () => {
      const got = evaluationError(expr);
      if (typeof want === 'string') assert.equal(got, want);
      else assert.match(got, want);
    });
  }
}

describe('strings (cel-go ext, version 2)', () => {
  table([
    ["'hello'.charAt(1)", 'e'],
    ["'hello'.charAt(5)", ''],
    ["'héllo😀x'.charAt(5)", '😀'],
    ["'hello mellow'.indexOf('ello')", 1n],
    ["'hello mellow'.indexOf('ello', 2)", 7n],
    ["'hello'.indexOf('')", 0n],
    ["'😀a😀a'.indexOf('a', 2)", 3n],
    ["'hello mellow'.lastIndexOf('ello')", 7n],
    ["'hello mellow'.lastIndexOf('ello', 6)", 1n],
    ["'hello'.lastIndexOf('')", 5n],
    ["'TacoCÆt Xii'.lowerAscii()", 'tacocÆt xii'],
    ["'tacoCæt xii'.upperAscii()", 'TACOCæT XII'],
    ["'hello hello'.replace('he', 'we')", 'wello wello'],
    ["'hello hello'.replace('he', 'we', 1)", 'wello hello'],
    ["'hello hello'.replace('he', 'we', 0)", 'hello hello'],
    ["'ab'.replace('', '-')", '-a-b-'],
    ["'ab'.replace('', '-', 2)", '-a-b'],
    ["'hello hello hello'.split(' ')", ['hello', 'hello', 'hello']],
    ["'hello hello hello'.split(' ', 0)", []],
    ["'hello hello hello'.split(' ', 1)", ['hello hello hello']],
    ["'hello hello hello'.split(' ', 2)", ['hello', 'hello hello']],
    ["'hello hello hello'.split(' ', -1)", ['hello', 'hello', 'hello']],
    ["'tacocat'.substring(4)", 'cat'],
    ["'tacocat'.substring(0, 4)", 'taco'],
    ["'😀😀ab'.substring(1, 3)", '😀a'],
    ["'  \\ttrim\\n    '.trim()", 'trim'],
    ["['hello', 'mellow'].join()", 'hellomellow'],
    ["['hello', 'mellow'].join(' ')", 'hello mellow'],
    ["[].join('/')", ''],
  ]);
  failures([
    ["'hello'.charAt(6)", 'index out of range: 6'],
    ["'hello'.indexOf('l', 10)", 'index out of range: 10'],
    ["'tacocat'.substring(40)", 'index out of range: 40'],
    ["'tacocat'.substring(4, 2)", 'invalid substring range. start: 4, end: 2'],
  ]);
});

describe('lists', () => {
  table([
    ['[1, 2, 3].isSorted()', true],
    ['[1, 3, 2].isSorted()', false],
    ["['a', 'b', 'b'].isSorted()", true],
    ['[1, 2, 3].sum()', 6n],
    ['[1.5, 2.5].sum()', 4.0],
    ['[].sum() == 0', true],
    ['[3, 1, 2].min()', 1n],
    ['[3, 1, 2].max()', 3n],
    ["['b', 'c', 'a'].max()", 'c'],
    ['[1, 2, 2, 3].indexOf(2)', 1n],
    ['[1, 2, 2, 3].lastIndexOf(2)', 2n],
    ['[1, 2, 3].indexOf(4)', -1n],
    ['[[1], [2]].indexOf([2])', 1n],
  ]);
  failures([
    ['[].min() == 0', 'min called on empty list'],
    ['[9223372036854775807, 1].sum() > 0', 'integer overflow'],
  ]);
});

describe('regex (RE2)', () => {
  table([
    ["'abc 123'.find('[0-9]+')", '123'],
    ["'abc'.find('[0-9]+')", ''],
    ["'123 abc 456'.findAll('[0-9]+')", ['123', '456']],
    ["'123 abc 456'.findAll('[0-9]+', 1)", ['123']],
    // Go skips an empty match right after the previous match.
    ["'baaac'.findAll('a*')", ['', 'aaa', '']],
    ["'ABC'.matches('(?i)^abc$')", true],
    ["'abc'.matches('^b')", false],
  ]);
  failures([["'abc'.find('[' + '')", /^Illegal regex: error parsing regexp: missing closing \]/]]);
});

describe('url', () => {
  table([
    ["url('/path').getScheme()", ''],
    ["url('https://example.com/').getScheme()", 'https'],
    ["url('https://example.com:80/').getHost()", 'example.com:80'],
    ["url('https://example.com/').getHost()", 'example.com'],
    ["url('https://[::1]:80/').getHost()", '[::1]:80'],
    ["url('https://[::1]/').getHost()", '[::1]'],
    ["url('/path').getHost()", ''],
    ["url('https://example.com:80/').getHostname()", 'example.com'],
    ["url('https://127.0.0.1:80/').getHostname()", '127.0.0.1'],
    ["url('https://[::1]:80/').getHostname()", '::1'],
    ["url('https://example.com:80/').getPort()", '80'],
    ["url('https://example.com/').getPort()", ''],
    ["url('https://example.com/path').getEscapedPath()", '/path'],
    ["url('https://example.com/path with spaces/').getEscapedPath()", '/path%20with%20spaces/'],
    ["url('https://example.com').getEscapedPath()", ''],
    [
      "url('https://example.com/path?k1=a&k2=b&k2=c').getQuery()",
      new Map([
        ['k1', ['a']],
        ['k2', ['b', 'c']],
      ]),
    ],
    ["url('https://example.com/path?key with spaces=value with spaces').getQuery()", new Map([['key with spaces', ['value with spaces']]])],
    ["url('https://example.com/path?').getQuery()", new Map()],
    ["url('https://user:pass@example.com:80/path?query=val#fragment').getHost()", 'example.com:80'],
    ["isURL('https://user:pass@example.com:80/path?query=val#fragment')", true],
    ["isURL('/absolute-path')", true],
    ["isURL('https://a:b:c/')", false],
    ["isURL('../relative-path')", false],
    ["isURL('https://example.com/%')", false],
    ["url('https://example.com') == url('https://example.com')", true],
  ]);
  failures([
    ["url('../relative-path') == url('/')", 'URL parse error during conversion from string: parse "../relative-path": invalid URI for request'],
    ["url('https://a:b:c/') == url('/')", 'URL parse error during conversion from string: parse "https://a:b:c/": invalid port ":c" after host'],
  ]);
});

describe('quantity', () => {
  table([
    ["quantity('200M') == quantity('200M')", true],
    ["quantity('200M') == quantity('0.2G') && quantity('0.2G') == quantity('200M')", true],
    ["quantity('2M') == quantity('0.002G') && quantity('2000k') == quantity('2M')", true],
    ["quantity('200M') == quantity('0.3G')", false],
    ["isQuantity('20')", true],
    ["isQuantity('20Mi')", true],
    ["isQuantity('20Mo')", false],
    ["isQuantity('10Mm')", false],
    ["quantity('50M').isLessThan(quantity('50Mi'))", true],
    ["quantity('100M').isLessThan(quantity('50M'))", false],
    ["quantity('50Mi').isGreaterThan(quantity('50M'))", true],
    ["quantity('200M').compareTo(quantity('0.2G'))", 0n],
    ["quantity('50M').compareTo(quantity('50Mi'))", -1n],
    ["quantity('50Mi').compareTo(quantity('50M'))", 1n],
    ["quantity('50k').add(quantity('20')) == quantity('50.02k')", true],
    ["quantity('50k').add(20).isLessThan(quantity('50020'))", false],
    ["quantity('50k').sub(quantity('20')) == quantity('49.98k')", true],
    ["quantity('50k').sub(20) == quantity('49980')", true],
    ["quantity('50k').add(20).sub(quantity('100k')).asInteger()", -49980n],
    ["quantity('50k').add(20).sub(quantity('100k')).sub(-50000).asInteger()", 20n],
    ["quantity('50k').asInteger()", 50000n],
    ["quantity('9999999999999999999999999999999999999G').isInteger()", false],
    ["quantity('50').isInteger()", true],
    ["quantity('1.5').isInteger()", false],
    ["quantity('50.703k').asApproximateFloat()", 50703],
    ["sign(quantity('-5m'))", -1n],
    ["sign(quantity('0'))", 0n],
    ["sign(quantity('1Ki'))", 1n],
  ]);
  failures([
    ["quantity('10Mo') == quantity('1')", "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
    ["quantity('10Mm') == quantity('1')", "unable to parse quantity's suffix"],
    ["quantity('9999999999999999999999999999999999999G').asInteger() > 0", 'cannot convert value to integer'],
  ]);
});

describe('sets', () => {
  table([
    ['sets.contains([1, 2, 3], [3, 1])', true],
    ['sets.contains([1, 2], [3])', false],
    ['sets.equivalent([1, 2, 2], [2, 1])', true],
    ['sets.intersects([1, 2], [2, 5])', true],
    ['sets.intersects([1, 2], [5])', false],
  ]);
});

describe('ip and cidr', () => {
  table([
    ["ip('127.0.0.1').family()", 4n],
    ["ip('::1').family()", 6n],
    ["isIP('127.0.0.1') && isIP('::1') && isIP('2001:db8::1:2')", true],
    ["isIP('127.0.0.256')", false],
    ["isIP(':::1')", false],
    ["isIP('127.0.0.01')", false],
    ["isIP('fe80::1%eth0')", false],
    ["isIP('::ffff:1.2.3.4')", false],
    ["ip.isCanonical('127.0.0.1')", true],
    ["ip.isCanonical('2001:db8::abcd')", true],
    ["ip.isCanonical('2001:DB8::ABCD')", false],
    ["ip.isCanonical('2001:db8::0:0:0:abcd')", false],
    ["string(ip('2001:db8:0:0:1:0:0:1'))", '2001:db8::1:0:0:1'],
    ["string(ip('::'))", '::'],
    ["ip('0.0.0.0').isUnspecified() && ip('::').isUnspecified()", true],
    ["ip('127.0.0.1').isLoopback() && ip('::1').isLoopback() && !ip('192.168.0.1').isLoopback()", true],
    ["ip('224.0.0.1').isLinkLocalMulticast() && !ip('224.0.1.1').isLinkLocalMulticast() && ip('ff02::1').isLinkLocalMulticast() && !ip('fd00::1').isLinkLocalMulticast()", true],
    ["ip('169.254.169.254').isLinkLocalUnicast() && ip('fe80::1').isLinkLocalUnicast() && !ip('fd80::1').isLinkLocalUnicast()", true],
    ["ip('192.168.0.1').isGlobalUnicast() && !ip('255.255.255.255').isGlobalUnicast() && ip('2001:db8::abcd').isGlobalUnicast() && !ip('ff00::1').isGlobalUnicast()", true],
    ["ip('1.2.3.4') == ip('1.2.3.4')", true],
    ["cidr('192.168.0.0/24').containsIP(ip('192.168.0.1')) && cidr('192.168.0.0/24').containsIP('192.168.0.1')", true],
    ["cidr('192.168.0.0/24').containsIP('192.168.1.1') || cidr('::1/128').containsIP('127.0.0.1')", false],
    ["cidr('192.168.0.0/24').containsCIDR('192.168.0.0/25') && !cidr('192.168.0.0/25').containsCIDR('192.168.0.0/24')", true],
    ["cidr('192.168.0.0/16').containsCIDR(cidr('192.168.10.0/24'))", true],
    ["cidr('192.168.0.1/24').ip() == ip('192.168.0.1')", true],
    ["string(cidr('192.168.0.1/24').masked())", '192.168.0.0/24'],
    ["cidr('::1/128').prefixLength()", 128n],
    ["string(cidr('2001:db8::1/64').masked())", '2001:db8::/64'],
    ["isCIDR('192.168.0.0/33') || isCIDR('192.168.0.0') || isCIDR('192.168.0.0/08')", false],
    ["cidr('10.0.0.0/8') == cidr('10.0.0.0/8') && cidr('10.0.0.0/8') != cidr('10.0.0.0/9')", true],
  ]);
  failures([
    ["ip('127.0.0.256') == ip('::1')", /^IP Address "127\.0\.0\.256" parse error during conversion from string: ParseAddr\("127\.0\.0\.256"\): IPv4 field has value >255$/],
    ["ip('fe80::1%eth0') == ip('::1')", 'IP address "fe80::1%eth0" with zone value is not allowed'],
    ["ip('::ffff:1.2.3.4') == ip('::1')", 'IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed'],
    ["cidr('1.2.3.4') == cidr('::/0')", /^network address parse error during conversion from string: /],
  ]);
});

describe('standard CEL in the Kubernetes environment', () => {
  table([
    ["self.?s.orValue('none')", 'none'],
    ['type(1) == int', true],
    ["duration('1h') > duration('30m')", true],
    ["timestamp('2024-01-01T00:00:00Z') < timestamp('2024-06-01T00:00:00Z')", true],
  ]);
});
