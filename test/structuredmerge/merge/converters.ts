// The converters of SMD's multiple_appliers_test.go that ignore_test.go shares: they turn a
// version into a different-looking object so that the Updater's conversions are exercised.
import { stringify } from 'yaml';
import type { APIVersion } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import type { Converter } from '../../../runtime/apimachinery/structuredmerge/merge/index.js';
import type { TypedValue } from '../../../runtime/apimachinery/structuredmerge/typed/index.js';
import type { JSONObject } from '../../../runtime/apimachinery/serializer/jsonvalue.js';
import { ownField, setField } from '../../../runtime/apimachinery/serializer/jsonvalue.js';
import type { Parser } from '../fixture/index.js';

/** The error a converter answers for a version it does not know; isMissingVersionError is true of it only. */
export const missingVersionError = new Error('cannot convert to invalid version');

/** The object as yaml.v2 marshals it: keys sorted, list items not indented under their key. */
export function marshalYAML(v: unknown): string {
  return stringify(v, { sortMapEntries: true, indentSeq: false });
}

/**
 * vN repeats the first letter of every nested key N times (a → aaa in v3), dropping the leaf
 * values: for objects of maps of maps only (mapOfMapsRecursive), as in SMD.
 */
export class RepeatingConverter implements Converter {
  constructor(readonly parser: Parser) {}

  convert(v: TypedValue, version: APIVersion): TypedValue {
    if (version.length < 2 || !version.startsWith('v') || !/^[+-]?\d+$/.test(version.slice(1))) throw missingVersionError;
    const versionNumber = Number(version.slice(1));
    const lines = marshalYAML(v.value).split('\n');
    let out = lines[0] ?? '';
    for (const line of lines.slice(1)) {
      const spaces = /^ */.exec(line)?.[0] ?? '';
      if (spaces.length === 0) break;
      const c = line.slice(spaces.length, spaces.length + 1);
      out = `${out}\n${spaces}${c.repeat(versionNumber)}:`;
    }
    return this.parser.type(version).fromYAML(out);
  }

  isMissingVersionError(err: unknown): boolean {
    return err === missingVersionError;
  }
}

/**
 * Renames the fields whose name ends in the object's version (its type's name) to end in the
 * target version (name_v1 → name_v2); other fields are the same in every version.
 */
export class RenamingConverter implements Converter {
  constructor(readonly parser: Parser) {}

  convert(v: TypedValue, version: APIVersion): TypedValue {
    const inVersion = v.typeRef.namedType ?? '';
    return this.parser.type(version).fromUnstructured(renameFields(v.value, inVersion, version));
  }

  isMissingVersionError(err: unknown): boolean {
    return err === missingVersionError;
  }
}

function renameFields(v: unknown, oldSuffix: string, newSuffix: string): unknown {
  if (Array.isArray(v)) return v.map((item) => renameFields(item, oldSuffix, newSuffix));
  if (v === null || typeof v !== 'object') return v;
  const out: JSONObject = {};
  for (const key of Object.keys(v)) {
    const name = key.endsWith(oldSuffix) ? key.slice(0, key.length - oldSuffix.length) + newSuffix : key;
    setField(out, name, renameFields(ownField(v, key), oldSuffix, newSuffix));
  }
  return out;
}
