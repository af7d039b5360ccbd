// `kube-ts-apiserver/runtime`: what a project's server entry and its API groups import from the
// framework. A group's hand-written files (strategy.ts, conversion.ts, defaults.ts, admission.ts)
// and the generated registry use the types below; everything else under runtime/ is internal and
// may move between releases. The client side is `kube-ts-apiserver/client`.

// A server entry: the project's groups (its generated index) in a full control plane, or on a
// standalone aggregated API server; as commands (flags, signals) or started in process (tests).
export { runControlPlane } from './controlplane/run.js';
export type { RunControlPlaneOptions } from './controlplane/run.js';
export { startControlPlane } from './controlplane/controlplane.js';
export type { ControlPlane, ControlPlaneOptions } from './controlplane/controlplane.js';
export type { ServerRunOptions } from './controlplane/options.js';
export { runAggregatedServer } from './aggregated/run.js';
export type { RunAggregatedServerOptions } from './aggregated/run.js';
export { startAggregatedServer } from './aggregated/server.js';
export type { AggregatedServer } from './aggregated/server.js';
export type { AggregatedServerOptions } from './aggregated/options.js';

// What generated/registry/<group>.ts declares and the runtime installs, and what a group declares
// in apis/<group>/group.ts (admission plugins, REST overrides, the server that owns it).
export type { APIGroupDeclaration, APIGroupDefinition, APIVersionDefinition, GroupServer, RESTOverride, RESTOverrideContext, RESTStorageOverride } from './registry/types.js';
export type { GoTypeName, GoTypeNames } from './apimachinery/schema/typeddecode.js';
export type { OpenAPIComponentsDocument, PrinterColumnDefinition, ResourceDefinition, Verb } from './apimachinery/definition/resource.js';
export type { ProtobufPackage, MessageDescriptor, FieldDescriptor, FieldType, ScalarType, WellKnownType } from './apimachinery/serializer/protobuf/descriptor.js';

// A kind's hand-written behaviour (apis/<group>/<version>/strategy.ts, conversion.ts, defaults.ts).
export type { RESTStrategy, RESTStatusStrategy } from './apimachinery/definition/strategy.js';
export type { Conversion, Defaulter } from './apimachinery/scheme/conversion.js';
export type { FieldError, FieldErrorType } from './apimachinery/validation/field.js';
export { childPath, formatFieldError } from './apimachinery/validation/field.js';

// Admission plugins a group declares (apis/<group>/group.ts).
export type {
  AdmissionChain,
  AdmissionContext,
  AdmissionPlugin,
  Attributes,
  MutationInterface,
  ObjectLookup,
  Operation,
  Plugin,
  PluginFactory,
  PluginInitializer,
  ValidationInterface,
} from './admission/types.js';

// Errors with kube's Status (code, reason, wording) that strategies and admission plugins return.
export * from './apimachinery/errors/index.js';

// Go's duration syntax (time.ParseDuration, metav1.Duration) for a command's flags and a kind's fields.
export { parseGoDuration } from './apimachinery/goduration.js';
