import type { int32, MicroTime, ObjectMeta, Time, TypeMeta } from '../../meta/v1/types.js';
import type { ObjectReference } from './types.js';

// kube also selects Events on `source` (source.component, else reportingComponent), which no
// JSONPath can express: the strategy computes it (event-strategy.ts).
/**
 * Event is a report of an event somewhere in the cluster. Events have a limited retention time and triggers and messages may evolve with time. Event consumers should not rely on the timing of an event with a given Reason reflecting a consistent underlying trigger, or the continued existence of events with that Reason. Events should be treated as informative, best-effort, supplemental data.
 *
 * @genclient
 * @resource path=events singular=event shortName=ev
 * @printcolumn name="Last Seen" type=string jsonPath=.lastTimestamp description="The time at which the most recent occurrence of this event was recorded."
 * @printcolumn name=Type type=string jsonPath=.type description="Type of this event (Normal, Warning), new types could be added in the future"
 * @printcolumn name=Reason type=string jsonPath=.reason description="This should be a short, machine understandable string that gives the reason for the transition into the object's current status."
 * @printcolumn name=Object type=string jsonPath=.involvedObject.name description="The object that this event is about."
 * @printcolumn name=Subobject type=string jsonPath=.involvedObject.fieldPath priority=1 description="If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]."
 * @printcolumn name=Source type=string jsonPath=.source.component priority=1 description="The component reporting this event. Should be a short machine understandable string."
 * @printcolumn name=Message type=string jsonPath=.message description="A human-readable description of the status of this operation."
 * @printcolumn name="First Seen" type=string jsonPath=.firstTimestamp priority=1 description="The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)"
 * @printcolumn name=Count type=string jsonPath=.count priority=1 description="The number of times this event has occurred."
 * @printcolumn name=Name type=string format=name jsonPath=.metadata.name priority=1 description="Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names"
 * @selectableField jsonPath=.involvedObject.kind
 * @selectableField jsonPath=.involvedObject.namespace
 * @selectableField jsonPath=.involvedObject.name
 * @selectableField jsonPath=.involvedObject.uid
 * @selectableField jsonPath=.involvedObject.apiVersion
 * @selectableField jsonPath=.involvedObject.resourceVersion
 * @selectableField jsonPath=.involvedObject.fieldPath
 * @selectableField jsonPath=.reason
 * @selectableField jsonPath=.reportingComponent
 * @selectableField jsonPath=.type
 */
export interface Event extends TypeMeta {
  /** @protobuf 1 */
  metadata?: ObjectMeta;
  /**
   * The object that this event is about.
   *
   * @protobuf 2
   */
  involvedObject?: ObjectReference;
  /**
   * This should be a short, machine understandable string that gives the reason for the transition into the object's current status.
   *
   * @protobuf 3
   */
  reason?: string;
  /**
   * A human-readable description of the status of this operation.
   *
   * @protobuf 4
   */
  message?: string;
  /**
   * The component reporting this event. Should be a short machine understandable string.
   *
   * @protobuf 5
   */
  source?: EventSource;
  /**
   * The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)
   *
   * @protobuf 6
   */
  firstTimestamp?: Time | null;
  /**
   * The time at which the most recent occurrence of this event was recorded.
   *
   * @protobuf 7
   */
  lastTimestamp?: Time | null;
  /**
   * The number of times this event has occurred.
   *
   * @protobuf 8
   */
  count?: int32;
  /**
   * Type of this event (Normal, Warning), new types could be added in the future
   *
   * @protobuf 9
   */
  type?: string;
  /**
   * Time when this Event was first observed.
   *
   * @protobuf 10
   */
  eventTime?: MicroTime | null;
  /**
   * Data about the Event series this event represents or nil if it's a singleton Event.
   *
   * @protobuf 11 pointer
   */
  series?: EventSeries;
  /**
   * What action was taken/failed regarding to the Regarding object.
   *
   * @protobuf 12
   */
  action?: string;
  /**
   * Optional secondary object for more complex actions.
   *
   * @protobuf 13 pointer
   */
  related?: ObjectReference;
  /**
   * Name of the controller that emitted this Event, e.g. `kubernetes.io/kubelet`.
   *
   * @default ""
   * @protobuf 14
   */
  reportingComponent?: string;
  /**
   * ID of the controller instance, e.g. `kubelet-xyzf`.
   *
   * @default ""
   * @protobuf 15
   */
  reportingInstance?: string;
}

/** EventSource contains information for an event. */
export interface EventSource {
  /**
   * Component from which the event is generated.
   *
   * @protobuf 1
   */
  component?: string;
  /**
   * Node name on which the event is generated.
   *
   * @protobuf 2
   */
  host?: string;
}

/** EventSeries contain information on series of events, i.e. thing that was/is happening continuously for some time. */
export interface EventSeries {
  /**
   * Number of occurrences in this series up to the last heartbeat time
   *
   * @protobuf 1
   */
  count?: int32;
  /**
   * Time of the last occurrence observed
   *
   * @protobuf 2
   */
  lastObservedTime?: MicroTime | null;
}
