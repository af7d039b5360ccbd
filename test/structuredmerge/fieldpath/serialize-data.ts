/** Test data of sigs.k8s.io/structured-merge-diff fieldpath/serialize_test.go, as written there. */

export const goldenData: readonly string[] = [
  '{"f:aaa":{},"f:aab":{},"f:aac":{},"f:aad":{},"f:aae":{},"f:aaf":{},"k:{\\"name\\":\\"first\\"}":{},"k:{\\"name\\":\\"second\\"}":{},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{},"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{},"v:1":{},"v:2":{},"v:3":{},"v:\\"aa\\"":{},"v:\\"ab\\"":{},"v:true":{},"i:1":{},"i:2":{},"i:3":{},"i:4":{}}',
  '{"f:aaa":{"k:{\\"name\\":\\"second\\"}":{"v:3":{"f:aab":{}}},"v:3":{},"v:true":{}},"f:aab":{"f:aaa":{},"f:aaf":{"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{}}},"k:{\\"name\\":\\"first\\"}":{}},"f:aac":{"f:aaa":{"v:1":{}},"f:aac":{},"v:3":{"k:{\\"name\\":\\"second\\"}":{}}},"f:aad":{"f:aac":{"v:1":{}},"f:aaf":{"k:{\\"name\\":\\"first\\"}":{"k:{\\"name\\":\\"first\\"}":{}}},"i:1":{"i:1":{},"i:3":{"v:true":{}}}},"f:aae":{"f:aae":{},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{}},"i:4":{"f:aaf":{}}},"f:aaf":{"i:1":{"f:aac":{}},"i:2":{},"i:3":{}},"k:{\\"name\\":\\"first\\"}":{"f:aad":{"f:aaf":{}}},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{"f:aaa":{"f:aad":{}}},"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{"f:aac":{},"k:{\\"name\\":\\"first\\"}":{"i:3":{}},"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{"i:4":{}}},"v:1":{"f:aac":{"i:4":{}},"f:aaf":{},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{}},"v:2":{"f:aad":{"f:aaf":{}},"i:1":{}},"v:3":{"f:aaa":{},"k:{\\"name\\":\\"first\\"}":{},"i:2":{}},"v:\\"aa\\"":{"f:aab":{"f:aaf":{}},"f:aae":{},"k:{\\"name\\":\\"first\\"}":{"f:aad":{}},"i:2":{}},"v:\\"ab\\"":{"f:aaf":{"i:4":{}},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{},"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{},"v:1":{"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{}},"i:1":{"f:aae":{"i:4":{}}}},"v:true":{"k:{\\"name\\":\\"second\\"}":{"f:aaa":{}},"i:2":{"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{}}},"i:1":{"i:3":{"f:aaf":{}}},"i:2":{"f:aae":{},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{"v:1":{}}},"i:3":{"f:aab":{"v:true":{"v:\\"aa\\"":{}}},"f:aaf":{},"i:1":{}},"i:4":{"v:\\"aa\\"":{"f:aab":{"k:{\\"name\\":\\"second\\"}":{}}}}}',
  '{"f:spec":{".":{},"f:apps":{".":{},"k:{\\"name\\":\\" app-💻\\"}":{".":{},"f:container":{".":{},"f:image":{},"f:name":{},"f:ports":{".":{},"k:{\\"name\\":\\"port 🔑\\"}":{".":{},"f:containerPort":{},"f:name":{}}}},"f:name":{}},"k:{\\"name\\":\\" app-🚀\\"}":{".":{},"f:container":{".":{},"f:image":{},"f:name":{},"f:ports":{".":{},"k:{\\"name\\":\\"port-✅ \\"}":{".":{},"f:containerPort":{},"f:name":{}}}},"f:name":{}}}}}',
];

export const nonNormalized: ReadonlyArray<{ readonly nonNormalizedString: string; readonly normalizedString: string }> = [
  {
    nonNormalizedString:
      '{\n  "f:aad": {},\n  "f:aaa": {},\n  "f:aab": {},\n  "f:aac": {},\n  "f:aae": {},\n  "f:aaf": {},\n\n\n  "k:{\\"name\\":\\"first\\"}": {},\n  "k:{\\"name\\":\\"second\\"}": {},\n  "k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}": {},\n  "k:{ \\"protocol\\":\\"udp\\",\\"port\\":443}": {},\n  "v:1": {},\n\n  "v:2": {},\n  "v: 3": {},\n  "v:\\"aa\\"": {},\n\n  "v:\\"ab\\"": {},\n  "v:true": {},\n  "i:1": {},\n  \t"i:2": {},\n  "i:3": {}  ,\n  "i:4":    {}\n}',
    normalizedString:
      '{"f:aaa":{},"f:aab":{},"f:aac":{},"f:aad":{},"f:aae":{},"f:aaf":{},"k:{\\"name\\":\\"first\\"}":{},"k:{\\"name\\":\\"second\\"}":{},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{},"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{},"v:1":{},"v:2":{},"v:3":{},"v:\\"aa\\"":{},"v:\\"ab\\"":{},"v:true":{},"i:1":{},"i:2":{},"i:3":{},"i:4":{}}',
  },
  {
    nonNormalizedString:
      '{\n  "f:aaa": {\n    "k:{\\"name\\":\\"second\\"}": {\n      "v:3": {\n        "f:aab": {}\n      }\n    },\n    "v:3": {},\n    "v:true": {}\n  },\n  "f:aab": {\n    "f:aaa": {},\n    "f:aaf": {\n      "k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}": {\n        "k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}": {}\n      }\n    },\n    "k:{\\"name\\":\\"first\\"}": {}\n  },\n  "f:aac": {\n    "f:aaa": {\n      "v:1": {}\n    },\n    "f:aac": {},\n    "v:3": {\n      "k:{\\"name\\":\\"second\\"}": {}\n    }\n  },\n  "f:aad": {\n    "f:aac": {\n      "v:1": {}\n    },\n    "f:aaf": {\n      "k:{\\"name\\":\\"first\\"}": {\n        "k:{\\"name\\":\\"first\\"}": {}\n      }\n    },\n    "i:1": {\n      "i:1": {},\n      "i:3": {\n        "v:true": {}\n      }\n    }\n  },\n  "f:aae": {\n    "f:aae": {},\n    "k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}": {\n      "k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}": {}\n    },\n    "i:4": {\n      "f:aaf": {}\n    }\n  },\n  "f:aaf": {\n    "i:1": {\n      "f:aac": {}\n    },\n\t"i:3": {},\n    "i:2": {}\n  },\n  "k:{\\"name\\":\\"first\\"}": {\n    "f:aad": {\n      "f:aaf": {}\n    }\n  },\n  "k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}": {\n    "f:aaa": {\n      "f:aad": {}\n    }\n  },\n  "k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}": {\n    "f:aac": {},\n    "k:{\\"name\\":\\"first\\"}": {\n      "i:3": {}\n    },\n    "k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}": {\n      "i:4": {}\n    }\n  },\n   "v:2": {\n    "f:aad": {\n      "f:aaf": {}\n    },\n    "i:1": {}\n  },\n  "v:1": {\n    "f:aac": {\n      "i:4": {}\n    },\n    "f:aaf": {},\n    "k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}": {}\n  },\n  "v:3": {\n    "f:aaa": {},\n    "k:{\\"name\\":\\"first\\"}": {},\n    "i:2": {}\n  },\n  "v:\\"aa\\"": {\n    "f:aab": {\n      "f:aaf": {}\n    },\n    "f:aae": {},\n    "k:{\\"name\\":\\"first\\"}": {\n      "f:aad": {}\n    },\n    "i:2": {}\n  },\n  "v:\\"ab\\"": {\n    "f:aaf": {\n      "i:4": {}\n    },\n    "k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}": {},\n    "k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}": {},\n    "v:1": {\n      "k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}": {}\n    },\n    "i:1": {\n      "f:aae": {\n        "i:4": {}\n      }\n    }\n  },\n  \n  "v:true": {\n    "k:{\\"name\\":\\"second\\"}": {\n      "f:aaa": {}\n    },\n    "i:2": {\n      "k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}": {}\n    }\n  },\n\n  \n  "i:1": {\n    "i:3": {\n      "f:aaf": {}\n    }\n  },\n\n  "i:3": {\n    "f:aab": {\n      "v:true": {\n        "v:\\"aa\\"": {}\n      }\n    },\n    "f:aaf": {},\n    "i:1": {}\n  },\n\n  "i:2": {\n    "f:aae": {},\n    "k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}": {\n      "v:1": {}\n    }\n  },\n\n  "i:4": {\n    "v:\\"aa\\"": {\n      "f:aab": {\n        "k:{\\"name\\":\\"second\\"}": {}\n      }\n    }\n  }\n}',
    normalizedString:
      '{"f:aaa":{"k:{\\"name\\":\\"second\\"}":{"v:3":{"f:aab":{}}},"v:3":{},"v:true":{}},"f:aab":{"f:aaa":{},"f:aaf":{"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{}}},"k:{\\"name\\":\\"first\\"}":{}},"f:aac":{"f:aaa":{"v:1":{}},"f:aac":{},"v:3":{"k:{\\"name\\":\\"second\\"}":{}}},"f:aad":{"f:aac":{"v:1":{}},"f:aaf":{"k:{\\"name\\":\\"first\\"}":{"k:{\\"name\\":\\"first\\"}":{}}},"i:1":{"i:1":{},"i:3":{"v:true":{}}}},"f:aae":{"f:aae":{},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{}},"i:4":{"f:aaf":{}}},"f:aaf":{"i:1":{"f:aac":{}},"i:2":{},"i:3":{}},"k:{\\"name\\":\\"first\\"}":{"f:aad":{"f:aaf":{}}},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{"f:aaa":{"f:aad":{}}},"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{"f:aac":{},"k:{\\"name\\":\\"first\\"}":{"i:3":{}},"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{"i:4":{}}},"v:1":{"f:aac":{"i:4":{}},"f:aaf":{},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{}},"v:2":{"f:aad":{"f:aaf":{}},"i:1":{}},"v:3":{"f:aaa":{},"k:{\\"name\\":\\"first\\"}":{},"i:2":{}},"v:\\"aa\\"":{"f:aab":{"f:aaf":{}},"f:aae":{},"k:{\\"name\\":\\"first\\"}":{"f:aad":{}},"i:2":{}},"v:\\"ab\\"":{"f:aaf":{"i:4":{}},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{},"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{},"v:1":{"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{}},"i:1":{"f:aae":{"i:4":{}}}},"v:true":{"k:{\\"name\\":\\"second\\"}":{"f:aaa":{}},"i:2":{"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{}}},"i:1":{"i:3":{"f:aaf":{}}},"i:2":{"f:aae":{},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{"v:1":{}}},"i:3":{"f:aab":{"v:true":{"v:\\"aa\\"":{}}},"f:aaf":{},"i:1":{}},"i:4":{"v:\\"aa\\"":{"f:aab":{"k:{\\"name\\":\\"second\\"}":{}}}}}',
  },
];

export const tokenTypeErrors: ReadonlyArray<readonly [string, string]> = [
  ['rootArray', '[]'],
  ['rootNumber', '42'],
  ['rootString', '"hi"'],
  ['empty', ''],
  ['whitespaceOnly', '   '],
  ['numberAsKey', '{1:{}}'],
  ['trailingCommaAfterEntry', '{"f:a":{},}'],
  ['closedBeforeColon', '{"f:a" }:{}}'],
  ['closedBeforeValue', '{"f:a":}'],
  ['valueIsNumber', '{"f:a":1}'],
  ['valueIsArray', '{"f:a":[]}'],
  ['valueOpenedAsArrayClosedAsObject', '{"f:a":[}'],
  ['valueOpenedAsObjectClosedAsArray', '{"f:a":{]}'],
  ['doubleCommaBetweenEntries', '{"f:a":{},,"f:b":{}}'],
  ['missingCommaBetweenEntries', '{"f:a":{} "f:b":{}}'],
  ['doubleColonAfterKey', '{"f:a"::{}}'],
  ['colonWithoutKey', '{:1}'],
  ['keyWithoutColon', '{"f:a"}'],
  ['leadingCommaInsideValue', '{"f:a":{,}}'],
  ['bareCloseBrace', '}'],
  ['keyEmptyString', '{"":{}}'],
  ['keyMissingColon', '{"x":{}}'],
  ['keyOnlyColon', '{":":{}}'],
  ['unclosedAfterOpen', '{'],
  ['unclosedAfterValue', '{"f:a":{}'],
  ['unclosedAfterTrailingComma', '{"f:a":{},'],
  ['truncatedOpenQuoteOnly', '{"'],
  ['truncatedKeyTypeOnly', '{"f'],
  ['truncatedKeySeparator', '{"f:'],
  ['truncatedKeyNoCloseQuote', '{"f:a'],
  ['truncatedAfterKey', '{"f:a"'],
  ['truncatedAfterColon', '{"f:a":'],
  ['truncatedAfterNestedOpen', '{"f:a":{'],
  ['truncatedAfterNestedKey', '{"f:a":{"f:b"'],
  ['truncatedAfterNestedColon', '{"f:a":{"f:b":'],
  ['truncatedAfterNestedValue', '{"f:a":{"f:b":{}'],
  ['truncatedAfterNestedComma', '{"f:a":{"f:b":{},'],
  ['truncatedKeyWithEscape', '{"f:a\\'],
  ['truncatedKeyInsideUnicodeEscape', '{"f:\\u00'],
  ['truncatedAtSecondKey', '{"f:a":{}, "f'],
  ['truncatedAtSecondKeyClose', '{"f:a":{}, "f:b'],
  ['trailingCloseBrace', '{"f:a":{}}}'],
  ['trailingObject', '{"f:a":{}}{}'],
  ['trailingString', '{"f:a":{}}"string"'],
  ['trailingNumber', '{"f:a":{}}42'],
  ['trailingWhitespaceThenCloseBrace', '{"f:a":{}}  }'],
  ['trailingWhitespaceThenObject', '{"f:a":{}}  {}'],
  ['trailingWhitespaceThenString', '{"f:a":{}}  "x"'],
  ['trailingWhitespaceThenNumber', '{"f:a":{}}\n42'],
];

export const validJSON: ReadonlyArray<readonly [string, string]> = [
  ['trailingSpace', '{"f:a":{}} '],
  ['trailingTab', '{"f:a":{}}\t'],
  ['trailingNewline', '{"f:a":{}}\n'],
  ['trailingCarriageReturn', '{"f:a":{}}\r'],
  ['trailingMultipleSpaces', '{"f:a":{}}     '],
  ['trailingMixedWhitespace', '{"f:a":{}} \t\n\r '],
  ['leadingSpace', ' {"f:a":{}}'],
  ['leadingTab', '\t{"f:a":{}}'],
  ['leadingNewline', '\n{"f:a":{}}'],
  ['leadingCarriageReturn', '\r{"f:a":{}}'],
  ['leadingMultipleSpaces', '     {"f:a":{}}'],
  ['leadingMixedWhitespace', ' \t\n\r {"f:a":{}}'],
  ['surroundingMixedWhitespace', ' \t\n\r {"f:a":{}} \t\n\r '],
  ['whitespaceAroundEmptySet', '  {}  '],
  ['whitespaceBetweenTokens', '{ "f:a" : {} }'],
  ['whitespaceBeforeKey', '{\n\t"f:a":{}}'],
  ['whitespaceAfterColon', '{"f:a":     {}}'],
  ['bareNull', 'null'],
  ['nullWithSurroundingWhitespace', ' null '],
];
