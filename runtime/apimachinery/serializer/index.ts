// Request-body decoding (JSON, YAML, protobuf for kinds with descriptors) with kube's strict-decoding and error wording, and media types.
export * from './body.js';
export * from './decode.js';
export * from './json-scan.js';
export * from './jsonvalue.js';
export * from './mediatype.js';
export * from './strict.js';
export * from './yaml.js';
