// Reads a protobuf `openapi.v2.Document` back into Swagger 2.0 JSON, driven only by the
// protobufjs reflection of the descriptor (not by the encoder's tables), so that comparing the
// result with the JSON document checks the encoder against the wire contract.
import protobuf from 'protobufjs/light.js';
import YAML from 'yaml';
import { gnosticDocumentType } from '../../runtime/server/openapi/index.js';

type JSONValue = unknown;

/** Decodes the bytes of /openapi/v2 served as protobuf into its Swagger 2.0 JSON form. */
export function decodeSwaggerV2Protobuf(bytes: Uint8Array): Record<string, JSONValue> {
  const type = gnosticDocumentType();
  const plain = type.toObject(type.decode(bytes), { longs: Number, arrays: false, objects: false, defaults: false, oneofs: false });
  return messageToJSON(plain, type) as Record<string, JSONValue>;
}

/** The Any messages' YAML text, read as Go's yaml.v2 reads it (YAML 1.1). */
export function parseAnyYAML(text: string): JSONValue {
  return YAML.parse(text, { version: '1.1' }) as JSONValue;
}

function messageToJSON(message: Record<string, unknown>, type: protobuf.Type): JSONValue {
  switch (type.name) {
    case 'Any':
      return parseAnyYAML(String(message['yaml'] ?? ''));
    case 'TypeItem': {
      const value = (message['value'] ?? []) as string[];
      return value.length === 1 ? value[0] : value;
    }
    case 'ItemsItem': {
      const schemas = ((message['schema'] ?? []) as Record<string, unknown>[]).map((s) => messageToJSON(s, fieldType(type, 'schema')));
      return schemas.length === 1 ? schemas[0] : schemas;
    }
    case 'StringArray':
      return message['value'] ?? [];
  }
  // A message of one oneof (ParametersItem, Parameter, NonBodyParameter, ResponseValue, SchemaItem,
  // AdditionalPropertiesItem, SecurityDefinitionsItem) is the value of its one set field.
  if (type.oneofsArray.length === 1 && type.oneofsArray[0]!.fieldsArray.length === type.fieldsArray.length) {
    const set = type.fieldsArray.filter((f) => message[f.name] !== undefined && message[f.name] !== null);
    if (set.length !== 1) throw new Error(`${type.name}: ${set.length} fields of its oneof are set`);
    return fieldToJSON(message[set[0]!.name], set[0]!);
  }
  const out: Record<string, JSONValue> = {};
  for (const field of type.fieldsArray) {
    const value = message[field.name];
    if (value === undefined || value === null) continue;
    // Repeated (name, value) pairs are the entries of a JSON object: merged into this one.
    if (field.repeated && field.resolvedType instanceof protobuf.Type && field.resolvedType.name.startsWith('Named')) {
      const valueField = field.resolvedType.fields['value']!;
      for (const pair of value as Record<string, unknown>[]) out[String(pair['name'])] = fieldToJSON(pair['value'], valueField);
      continue;
    }
    out[field.name === 'ref' ? '$ref' : field.name] = fieldToJSON(value, field);
  }
  return out;
}

function fieldToJSON(value: unknown, field: protobuf.Field): JSONValue {
  const type = field.resolvedType;
  if (!(type instanceof protobuf.Type)) return value;
  if (field.repeated) return (value as Record<string, unknown>[]).map((m) => messageToJSON(m, type));
  return messageToJSON(value as Record<string, unknown>, type);
}

function fieldType(type: protobuf.Type, name: string): protobuf.Type {
  const resolved = type.fields[name]?.resolvedType;
  if (!(resolved instanceof protobuf.Type)) throw new Error(`${type.name}.${name} is not a message`);
  return resolved;
}
