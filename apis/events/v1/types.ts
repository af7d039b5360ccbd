import type { int32, MicroTime, ObjectMeta, Time, TypeMeta } from '../../meta/v1/types.js';
import type { EventSource } from '../../core/v1/event.js';
import type { ObjectReference } from '../../core/v1/types.js';

/**
 * Event is a report of an event somewhere in the cluster. It generally denotes some state change in the system. Events have a limited retention time and triggers and messages may evolve with time.  Event consumers should not rely on the timing of an event with a given Reason reflecting a consistent underlying trigger, or the continued existence of events with that Reason.  Events should be treated as informative, best-effort, supplemental data.
 *
 * @genclient
 * @resource path=events singular=event shortName=ev
 * @printcolumn name="Last Seen" type=string jsonPath=.deprecatedLastTimestamp description="The time at which the most recent occurrence of this event was recorded."
 * @printcolumn name=Type type=string jsonPath=.type description="Type of this event (Normal, Warning), new types could be added in the future"
 * @printcolumn name=Reason type=string jsonPath=.reason description="This should be a short, machine understandable string that gives the reason for the transition into the object's current status."
 * @printcolumn name=Object type=string jsonPath=.regarding.name description="The object that this event is about."
 * @printcolumn name=Subobject type=string jsonPath=.regarding.fieldPath priority=1 description="If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]."
 * @printcolumn name=Source type=string jsonPath=.deprecatedSource.component priority=1 description="The component reporting this event. Should be a short machine understandable string."
 * @printcolumn name=Message type=string jsonPath=.note description="A human-readable description of the status of this operation."
 * @printcolumn name="First Seen" type=string jsonPath=.deprecatedFirstTimestamp priority=1 description="The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)"
 * @printcolumn name=Count type=string jsonPath=.deprecatedCount priority=1 description="The number of times this event has occurred."
 * @printcolumn name=Name type=string format=name jsonPath=.metadata.name priority=1 description="Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names"
 * @selectableField jsonPath=.regarding.kind
 * @selectableField jsonPath=.regarding.namespace
 * @selectableField jsonPath=.regarding.name
 * @selectableField jsonPath=.regarding.uid
 * @selectableField jsonPath=.regarding.apiVersion
 * @selectableField jsonPath=.regarding.resourceVersion
 * @selectableField jsonPath=.regarding.fieldPath
 * @selectableField jsonPath=.reason
 * @selectableField jsonPath=.reportingController
 * @selectableField jsonPath=.type
 */
export interface Event extends TypeMeta {
  /**
   * Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata
   *
   * @protobuf 1
   */
  metadata?: ObjectMeta;
  /**
   * eventTime is the time when this Event was first observed. It is required.
   *
   * @protobuf 2
   */
  eventTime: MicroTime | null;
  /**
   * series is data about the Event series this event represents or nil if it's a singleton Event.
   *
   * @protobuf 3 pointer
   */
  series?: EventSeries;
  /**
   * reportingController is the name of the controller that emitted this Event, e.g. `kubernetes.io/kubelet`. This field cannot be empty for new Events.
   *
   * @protobuf 4
   */
  reportingController?: string;
  /**
   * reportingInstance is the ID of the controller instance, e.g. `kubelet-xyzf`. This field cannot be empty for new Events and it can have at most 128 characters.
   *
   * @protobuf 5
   */
  reportingInstance?: string;
  /**
   * action is what action was taken/failed regarding to the regarding object. It is machine-readable. This field cannot be empty for new Events and it can have at most 128 characters.
   *
   * @protobuf 6
   */
  action?: string;
  /**
   * reason is why the action was taken. It is human-readable. This field cannot be empty for new Events and it can have at most 128 characters.
   *
   * @protobuf 7
   */
  reason?: string;
  /**
   * regarding contains the object this Event is about. In most cases it's an Object reporting controller implements, e.g. ReplicaSetController implements ReplicaSets and this event is emitted because it acts on some changes in a ReplicaSet object.
   *
   * @protobuf 8
   */
  regarding?: ObjectReference;
  /**
   * related is the optional secondary object for more complex actions. E.g. when regarding object triggers a creation or deletion of related object.
   *
   * @protobuf 9 pointer
   */
  related?: ObjectReference;
  /**
   * note is a human-readable description of the status of this operation. Maximal length of the note is 1kB, but libraries should be prepared to handle values up to 64kB.
   *
   * @protobuf 10
   */
  note?: string;
  /**
   * type is the type of this event (Normal, Warning), new types could be added in the future. It is machine-readable. This field cannot be empty for new Events.
   *
   * @protobuf 11
   */
  type?: string;
  /**
   * deprecatedSource is the deprecated field assuring backward compatibility with core.v1 Event type.
   *
   * @protobuf 12
   */
  deprecatedSource?: EventSource;
  /**
   * deprecatedFirstTimestamp is the deprecated field assuring backward compatibility with core.v1 Event type.
   *
   * @protobuf 13
   */
  deprecatedFirstTimestamp?: Time | null;
  /**
   * deprecatedLastTimestamp is the deprecated field assuring backward compatibility with core.v1 Event type.
   *
   * @protobuf 14
   */
  deprecatedLastTimestamp?: Time | null;
  /**
   * deprecatedCount is the deprecated field assuring backward compatibility with core.v1 Event type.
   *
   * @protobuf 15
   */
  deprecatedCount?: int32;
}

/** EventSeries contain information on series of events, i.e. thing that was/is happening continuously for some time. How often to update the EventSeries is up to the event reporters. The default event reporter in "k8s.io/client-go/tools/events/event_broadcaster.go" shows how this struct is updated on heartbeats and can guide customized reporter implementations. */
export interface EventSeries {
  /**
   * count is the number of occurrences in this series up to the last heartbeat time.
   *
   * @protobuf 1
   */
  count: int32;
  /**
   * lastObservedTime is the time when last Event from the series was seen before last heartbeat.
   *
   * @protobuf 2
   */
  lastObservedTime: MicroTime | null;
}
