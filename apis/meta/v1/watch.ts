import type { RawExtension } from './scalars.js';

/**
 * The type of a watch event. metav1.WatchEvent's field is a plain Go string (watch.EventType is
 * another package's type).
 *
 * @goType string
 */
export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** One event of a watch stream, as sent on the wire (one JSON object per event). */
export interface WatchEvent {
  /** ADDED, MODIFIED, DELETED, BOOKMARK or ERROR. */
  type: WatchEventType;
  /**
   * The new state for ADDED and MODIFIED, the last state for DELETED, an object carrying only the resourceVersion for BOOKMARK, and usually a Status for ERROR.
   */
  object: RawExtension;
}
