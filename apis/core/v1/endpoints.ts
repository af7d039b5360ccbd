import type { int32, ObjectMeta, TypeMeta } from '../../meta/v1/types.js';
import type { ObjectReference, Protocol } from './types.js';

/**
 * One IP address of an endpoint.
 *
 * @structType atomic
 */
export interface EndpointAddress {
  /**
   * The endpoint's IP; not a loopback, link-local or link-local multicast address.
   *
   * @protobuf 1
   */
  ip: string;
  /**
   * The endpoint's hostname, a DNS label.
   *
   * @protobuf 3
   */
  hostname?: string;
  /**
   * The node hosting the endpoint, so that node-local endpoints can be found.
   *
   * @protobuf 4 pointer
   */
  nodeName?: string;
  /**
   * The object that provides the endpoint, usually a Pod.
   *
   * @protobuf 2 pointer
   */
  targetRef?: ObjectReference;
}

/**
 * One port of an endpoint.
 *
 * @structType atomic
 */
export interface EndpointPort {
  /**
   * The port's name, a DNS label matching a ServicePort name; optional only when there is one port.
   *
   * @protobuf 1
   */
  name?: string;
  /**
   * The port number of the endpoint, 1 to 65535.
   *
   * @protobuf 2
   */
  port: int32;
  /**
   * The IP protocol of the port.
   *
   * @default "TCP"
   * @protobuf 3
   */
  protocol?: Protocol;
  /**
   * A hint of the application protocol: an IANA service name, a `kubernetes.io/` name (h2c, ws, wss) or an implementation-defined prefixed name.
   *
   * @protobuf 4 pointer
   */
  appProtocol?: string;
}

/**
 * Addresses that share a set of ports; the endpoints are every address combined with every port.
 * Validated by the strategy (endpoints-validation.ts), as kube validates it in Go: kube's OpenAPI
 * publishes none of its rules.
 */
export interface EndpointSubset {
  /**
   * Addresses whose ports are ready; load balancers and clients may use them.
   *
   * @listType atomic
   * @protobuf 1
   */
  addresses?: EndpointAddress[];
  /**
   * Addresses whose ports are not ready yet, or recently failed a readiness or liveness check.
   *
   * @listType atomic
   * @protobuf 2
   */
  notReadyAddresses?: EndpointAddress[];
  /**
   * The ports available on these addresses.
   *
   * @listType atomic
   * @protobuf 3
   */
  ports?: EndpointPort[];
}

/**
 * Endpoints lists the addresses and ports that implement a Service, under the Service's name. A legacy API: it cannot describe every Service feature.
 *
 * @genclient
 * @resource path=endpoints singular=endpoints shortName=ep
 * @printcolumn name=Endpoints type=string jsonPath=.subsets[*].addresses[*].ip description="The addresses of the ready endpoints."
 * @printcolumn name=Age type=date jsonPath=.metadata.creationTimestamp
 * @deprecated Since Kubernetes v1.33; use discovery.k8s.io/v1 EndpointSlice.
 */
export interface Endpoints extends TypeMeta {
  /** @protobuf 1 */
  metadata?: ObjectMeta;
  /**
   * The endpoints of the Service, grouped into subsets of addresses sharing ports; an address appears in either addresses or notReadyAddresses of a subset, not both.
   *
   * @listType atomic
   * @protobuf 2
   */
  subsets?: EndpointSubset[];
}
