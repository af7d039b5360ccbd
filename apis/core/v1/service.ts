import type { Condition, int32, IntOrString, ObjectMeta, TypeMeta } from '../../meta/v1/types.js';
import type { Protocol } from './types.js';

/**
 * How a Service is exposed. The enums of this file list their members in kube's OpenAPI order
 * (openapi-gen sorts an enum's values), the order its validation names them in too.
 */
export type ServiceType = 'ClusterIP' | 'ExternalName' | 'LoadBalancer' | 'NodePort';

/** Session affinity of a Service: none, or sticky by client IP. */
export type ServiceAffinity = 'ClientIP' | 'None';

/** How nodes route traffic arriving on a Service's external addresses (node ports, external IPs, load-balancer IPs). */
export type ServiceExternalTrafficPolicy = 'Cluster' | 'Local';

/** How nodes route traffic sent to a Service's cluster IP. */
export type ServiceInternalTrafficPolicy = 'Cluster' | 'Local';

/** An IP family. */
export type IPFamily = 'IPv4' | 'IPv6';

/** How many IP families a Service asks for. */
export type IPFamilyPolicy = 'PreferDualStack' | 'RequireDualStack' | 'SingleStack';

/** How traffic to a load-balancer IP reaches the node: with the load-balancer IP as destination (VIP), or rewritten to the node or pod (Proxy). */
export type LoadBalancerIPMode = 'Proxy' | 'VIP';

/**
 * A Service port's protocol, Go's v1.Protocol without the enum in the schema: the strategy
 * checks the value, with kube's words.
 *
 * @goType v1.Protocol
 */
export type ServicePortProtocol = string;

/** One port a Service exposes. */
export interface ServicePort {
  /**
   * The port's name, a DNS label unique within the Service; required when the Service has more than one port. Matches EndpointPort.name. Checked by the strategy, with kube's words.
   *
   * @protobuf 1
   */
  name?: string;
  /**
   * The IP protocol of the port: TCP, UDP or SCTP (checked by the strategy, which reports an unsupported value with kube's words).
   *
   * @default "TCP"
   * @enum SCTP;TCP;UDP
   * @validatedByStrategy
   * @protobuf 2
   */
  protocol?: ServicePortProtocol;
  /**
   * A hint of the application protocol: an IANA service name, a `kubernetes.io/` name (h2c, ws, wss) or an implementation-defined prefixed name.
   *
   * @maxLength 316
   * @pattern ^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$
   * @protobuf 6 pointer
   */
  appProtocol?: string;
  /**
   * The port the Service exposes, 1-65535 (checked by the strategy, with kube's words).
   *
   * @protobuf 3
   */
  port: int32;
  /**
   * The port number (1-65535) or named container port (an IANA service name) on the selected pods; defaults to port. Checked by the strategy.
   *
   * @protobuf 4
   */
  targetPort?: IntOrString;
  /**
   * The port on every node for NodePort and LoadBalancer Services; allocated by the system when unset.
   *
   * @minimum 0
   * @maximum 65535
   * @protobuf 5
   */
  nodePort?: int32;
}

/** Settings of client-IP session affinity. */
export interface ClientIPConfig {
  /**
   * How long a client sticks to one endpoint, in seconds: more than 0, at most 86400; defaults to 10800 (3 hours).
   *
   * @minimum 1
   * @maximum 86400
   * @protobuf 1 pointer
   */
  timeoutSeconds?: int32;
}

/** Settings of session affinity. */
export interface SessionAffinityConfig {
  /**
   * Settings of client-IP based affinity.
   *
   * @protobuf 1 pointer
   */
  clientIP?: ClientIPConfig;
}

/**
 * The desired state of a Service.
 *
 * @validation rule="!has(self.type) || (self.type != 'NodePort' && self.type != 'LoadBalancer') || !has(self.clusterIP) || self.clusterIP != 'None'" message="may not be set to 'None' for NodePort and LoadBalancer services" fieldPath=".clusterIP"
 * @validation rule="(has(self.type) && self.type == 'LoadBalancer') || !has(self.loadBalancerSourceRanges) || size(self.loadBalancerSourceRanges) == 0" message="may only be used when type is LoadBalancer" fieldPath=".loadBalancerSourceRanges" reason=FieldValueForbidden
 */
export interface ServiceSpec {
  /**
   * The ports the Service exposes, unique by port and protocol (checked by the strategy, which reports a duplicate with kube's words).
   *
   * @listType map
   * @listMapKey port
   * @listMapKey protocol
   * @validatedByStrategy
   * @patchStrategy merge
   * @patchMergeKey port
   * @protobuf 1
   */
  ports?: ServicePort[];
  /**
   * Routes traffic to pods whose labels match; when empty, something outside Kubernetes manages the endpoints. Ignored for ExternalName.
   *
   * @mapType atomic
   * @protobuf 2
   */
  selector?: Record<string, string>;
  /**
   * The Service's virtual IP, usually allocated at random; `None` makes a headless Service. Immutable except when changing to or from ExternalName.
   *
   * @protobuf 3
   */
  clusterIP?: string;
  /**
   * The Service's IPs, one per IP family (at most two); the first equals clusterIP. Governed by ipFamilyPolicy.
   *
   * @listType atomic
   * @maxItems 2
   * @protobuf 18
   */
  clusterIPs?: string[];
  /**
   * How the Service is exposed: a cluster IP, also a port on every node, also an external load balancer, or a DNS alias to externalName.
   *
   * @default "ClusterIP"
   * @protobuf 4
   */
  type?: ServiceType;
  /**
   * IPs, not managed by Kubernetes, on which nodes also accept traffic for this Service.
   *
   * @listType atomic
   * @protobuf 5
   */
  externalIPs?: string[];
  /**
   * Whether connections from one client IP stick to one endpoint.
   *
   * @default "None"
   * @protobuf 7
   */
  sessionAffinity?: ServiceAffinity;
  /**
   * A load-balancer IP to request, where the platform supports it.
   *
   * @deprecated Its meaning varies between implementations and it cannot express dual-stack; prefer implementation-specific annotations.
   * @protobuf 8
   */
  loadBalancerIP?: string;
  /**
   * Client CIDRs the cloud load balancer admits, where the platform supports it; only for type LoadBalancer.
   *
   * @listType atomic
   * @protobuf 9
   */
  loadBalancerSourceRanges?: string[];
  /**
   * The DNS name the Service aliases (as a CNAME) when type is ExternalName; a lowercase RFC 1123 hostname.
   *
   * @protobuf 10
   */
  externalName?: string;
  /**
   * How nodes route traffic arriving on external addresses: `Cluster` spreads it over all endpoints, `Local` keeps it on the node and preserves the client IP.
   *
   * @protobuf 11
   */
  externalTrafficPolicy?: ServiceExternalTrafficPolicy;
  /**
   * The node port load balancers probe to find nodes with local endpoints; only for type LoadBalancer with externalTrafficPolicy Local. Immutable once set.
   *
   * @minimum 0
   * @maximum 65535
   * @protobuf 12
   */
  healthCheckNodePort?: int32;
  /**
   * Treat every endpoint as ready, for example so a StatefulSet's peers can discover each other before they are ready.
   *
   * @protobuf 13
   */
  publishNotReadyAddresses?: boolean;
  /**
   * Settings of the session affinity.
   *
   * @protobuf 14 pointer
   */
  sessionAffinityConfig?: SessionAffinityConfig;
  /**
   * The IP families of the Service, at most one of each, primary first; assigned from the cluster's configuration and ipFamilyPolicy when unset.
   *
   * @listType atomic
   * @maxItems 2
   * @protobuf 19
   */
  ipFamilies?: IPFamily[];
  /**
   * How many IP families the Service asks for; SingleStack when unset.
   *
   * @protobuf 17 pointer
   */
  ipFamilyPolicy?: IPFamilyPolicy;
  /**
   * Whether node ports are allocated for a LoadBalancer Service; true when unset. Only for type LoadBalancer.
   *
   * @protobuf 20 pointer
   */
  allocateLoadBalancerNodePorts?: boolean;
  /**
   * The load-balancer implementation this Service belongs to, such as `example.com/internal-vip`; only for type LoadBalancer, and immutable once set.
   *
   * @maxLength 316
   * @pattern ^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$
   * @protobuf 21 pointer
   */
  loadBalancerClass?: string;
  /**
   * How nodes route traffic sent to the cluster IP: `Cluster` (all endpoints) or `Local` (endpoints on the same node only).
   *
   * @protobuf 22 pointer
   */
  internalTrafficPolicy?: ServiceInternalTrafficPolicy;
  /**
   * A preference for how traffic is spread over endpoints, which implementations may treat as a hint; PreferClose is the old name of PreferSameZone.
   *
   * @enum PreferClose;PreferSameZone;PreferSameNode
   * @protobuf 23 pointer
   */
  trafficDistribution?: string;
}

/** The status of one port of a load-balancer ingress point. */
export interface PortStatus {
  /**
   * The Service port this status is for.
   *
   * @protobuf 1
   */
  port: int32;
  /**
   * The protocol of that port.
   *
   * @protobuf 2
   */
  protocol: Protocol;
  /**
   * A problem with the port: a CamelCase value, or `foo.example.com/CamelCase` for provider-specific ones.
   *
   * @maxLength 316
   * @pattern ^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$
   * @protobuf 3 pointer
   */
  error?: string;
}

/**
 * An address of a load balancer that traffic for the Service should be sent to.
 *
 * @validation rule="!has(self.ipMode) || (has(self.ip) && size(self.ip) > 0)" message="may only be specified when ip is set" fieldPath=".ipMode" reason=FieldValueRequired
 */
export interface LoadBalancerIngress {
  /**
   * The IP, for IP-based load balancers.
   *
   * @protobuf 1
   */
  ip?: string;
  /**
   * The hostname, for DNS-based load balancers.
   *
   * @protobuf 2
   */
  hostname?: string;
  /**
   * How traffic to ip reaches the node; only with ip.
   *
   * @protobuf 3 pointer
   */
  ipMode?: LoadBalancerIPMode;
  /**
   * The status of each Service port; when present, every port of the Service has an entry.
   *
   * @listType atomic
   * @protobuf 4
   */
  ports?: PortStatus[];
}

/** The state of a Service's load balancer. */
export interface LoadBalancerStatus {
  /**
   * The addresses traffic for the Service should be sent to.
   *
   * @listType atomic
   * @protobuf 1
   */
  ingress?: LoadBalancerIngress[];
}

/** The observed state of a Service. */
export interface ServiceStatus {
  /**
   * The state of the load balancer, if there is one.
   *
   * @protobuf 1
   */
  loadBalancer?: LoadBalancerStatus;
  /**
   * The current conditions of the Service, one per type.
   *
   * @listType map
   * @listMapKey type
   * @patchStrategy merge
   * @patchMergeKey type
   * @protobuf 2
   */
  conditions?: Condition[];
}

/**
 * A Service gives a set of pods, chosen by a label selector, one stable address and a set of ports, or aliases an external DNS name.
 *
 * @genclient
 * @skipVerbs deletecollection
 * @resource path=services singular=service shortName=svc categories=all
 * @subresource status
 * @printcolumn name=Type type=string jsonPath=.spec.type description="How the service is exposed: ClusterIP, NodePort, LoadBalancer or ExternalName."
 * @printcolumn name=Cluster-IP type=string jsonPath=.spec.clusterIP description="The virtual IP of the service; None for headless services."
 * @printcolumn name=External-IP type=string jsonPath=.spec.externalIPs description="IPs outside the cluster on which nodes accept traffic for the service."
 * @printcolumn name=Port(s) type=string jsonPath=.spec.ports[*].port description="The ports the service exposes."
 * @printcolumn name=Age type=date jsonPath=.metadata.creationTimestamp
 * @printcolumn name=Selector type=string jsonPath=.spec.selector description="The labels of the pods the service routes traffic to." priority=1
 * @selectableField jsonPath=.spec.clusterIP
 * @selectableField jsonPath=.spec.type
 */
export interface Service extends TypeMeta {
  /** @protobuf 1 */
  metadata?: ObjectMeta;
  /**
   * The desired state of the Service.
   *
   * @protobuf 2
   */
  spec?: ServiceSpec;
  /**
   * The observed state of the Service; read-only.
   *
   * @protobuf 3
   */
  status?: ServiceStatus;
}
