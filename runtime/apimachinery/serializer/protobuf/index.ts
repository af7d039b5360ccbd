// Protobuf request bodies: descriptors (generated from apis/), the scheme built from them, and the decoder.
export * from './builtin.js';
export * from './decode.js';
export * from './descriptor.js';
export * from './scheme.js';
export { ProtobufDecodeError } from './wire.js';
