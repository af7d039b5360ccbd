import { protobufPackages } from '../../../../generated/protobuf/index.js';
import { ProtobufScheme } from './scheme.js';

let scheme: ProtobufScheme | undefined;

/** The scheme of every type in apis/ with `@protobuf` numbers (generated/protobuf), built on first use. */
export function builtinProtobufScheme(): ProtobufScheme {
  scheme ??= new ProtobufScheme(protobufPackages);
  return scheme;
}
