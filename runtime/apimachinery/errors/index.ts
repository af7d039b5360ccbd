// The API error catalog: typed errors that carry the Status the client receives.
export * from './status-error.js';
export * from './catalog.js';
export * from './interpretable.js';
export * from './handle.js';
