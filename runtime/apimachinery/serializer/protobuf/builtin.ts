/* eslint-disable local/layers -- the built-in API's protobuf descriptors (kube keeps generated.pb.go beside its types); to be handed down by the server that installs the built-in groups */
import { autoscalingV1Protobuf } from '../../../../generated/protobuf/autoscaling/v1.js';
import { coreV1Protobuf } from '../../../../generated/protobuf/core/v1.js';
import { metaV1Protobuf } from '../../../../generated/protobuf/meta/v1.js';
/* eslint-enable local/layers */
import type { ProtobufPackage } from './descriptor.js';
import { ProtobufScheme } from './scheme.js';

/** The built-in API's messages, then every group version's a server installed with its own. */
const packages: ProtobufPackage[] = [coreV1Protobuf, autoscalingV1Protobuf, metaV1Protobuf];
let scheme: ProtobufScheme | undefined;

/**
 * The scheme of every type with `@protobuf` numbers this process knows: the built-in API's
 * (generated/protobuf of the core, autoscaling and meta packages) and those of the group versions
 * installed since (registerProtobufPackage). Built on first use, and again after a registration.
 */
export function builtinProtobufScheme(): ProtobufScheme {
  scheme ??= new ProtobufScheme(packages);
  return scheme;
}

/**
 * Adds a group version's messages (APIVersionDefinition.protobuf, when a server installs the
 * group): its kinds take protobuf bodies from then on. Throws, leaving the scheme as it was, when
 * the package refers to a message no package declares.
 */
export function registerProtobufPackage(pkg: ProtobufPackage): void {
  if (packages.includes(pkg)) return;
  const next = new ProtobufScheme([...packages, pkg]);
  packages.push(pkg);
  scheme = next;
}
