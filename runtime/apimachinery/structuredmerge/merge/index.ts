// sigs.k8s.io/structured-merge-diff merge: the Updater and its conflicts.
export { Conflict, Conflicts, conflictsFromManagers } from './conflict.js';
export type { Converter, MaybePromise } from './converter.js';
export type { ApplyResult, UpdateResult, UpdaterOptions } from './update.js';
export { Updater } from './update.js';
