// Patch application: JSON patch (RFC 6902), JSON merge patch (RFC 7386), strategic merge patch.
export * from './json-patch.js';
export * from './merge-patch.js';
export * from './strategic.js';
export { interpretStrategicMergePatchError } from './strategic/errors.js';
