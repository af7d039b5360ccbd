// `kube-ts-apiserver/runtime`: what a project's server entry and its API groups import from the
// framework. A group's hand-written files (strategy.ts, conversion.ts, defaults.ts, admission.ts)
// and the generated registry use the types below; everything else under runtime/ is internal and
// may move between releases. The client side is `kube-ts-apiserver/client`.

// What generated/registry/<group>.ts declares and the runtime installs.
export type { APIGroupDefinition, APIVersionDefinition } from './registry/types.js';
export type { OpenAPIComponentsDocument, PrinterColumnDefinition, ResourceDefinition, Verb } from './apimachinery/definition/resource.js';
export type { ProtobufPackage, MessageDescriptor, FieldDescriptor, FieldType, ScalarType, WellKnownType } from './apimachinery/serializer/protobuf/descriptor.js';

// A kind's hand-written behaviour (apis/<group>/<version>/strategy.ts, conversion.ts, defaults.ts).
export type { RESTStrategy, RESTStatusStrategy } from './apimachinery/definition/strategy.js';
export type { Conversion, Defaulter } from './apimachinery/scheme/conversion.js';
export type { FieldError, FieldErrorType } from './apimachinery/validation/field.js';
export { childPath, formatFieldError } from './apimachinery/validation/field.js';

// Admission plugins a group declares (apis/<group>/<version>/admission.ts).
export type {
  AdmissionChain, AdmissionContext, AdmissionPlugin, Attributes, MutationInterface, ObjectLookup, Operation, Plugin, ValidationInterface,
} from './admission/types.js';

// Errors with kube's Status (code, reason, wording) that strategies and admission plugins return.
export * from './apimachinery/errors/index.js';
