/** sigs.k8s.io/structured-merge-diff value: the order, equality and printing of decoded JSON values. */
export * from './compare.js';
export * from './fields.js';
export * from './tostring.js';
export * from './json.js';
