// The fake clientset runtime (client-go's testing.Fake and ObjectTracker): in-memory objects with the server's semantics.
export { type FakeClientsetOptions, ObjectTracker, type ObjectTrackerOptions, type TrackerWatchOptions, type TrackerWriteOptions } from './tracker.js';
export { FakeRESTClient } from './rest-client.js';
export { FieldManagedTracker, type ManagedWriteOptions } from './fieldmanaged.js';
export type { Action, ActionBase, ActionListOptions, ActionVerb, Reaction, ReactionFunc, WatchReaction, WatchReactionFunc } from './actions.js';
export { registeredFakeResource, type FakeResource, type FakeVerb, type GroupVersionResource } from './resources.js';
export type { ListedObjects, TrackerListOptions } from './list.js';
export { WatchChannel } from './watch.js';
export { INITIAL_EVENTS_END_ANNOTATION } from './watchers.js';
