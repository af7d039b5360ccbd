// Protobuf bodies: descriptors (generated from apis/), the scheme built from them, the decoder and the encoder.
export * from './builtin.js';
export * from './decode.js';
export * from './descriptor.js';
export * from './encode.js';
export * from './scheme.js';
export { ProtobufDecodeError } from './wire.js';
