import type { FieldDescriptor, MessageDescriptor, ProtobufPackage } from './descriptor.js';

/** The apiVersion and kind of an object, as its TypeMeta spells them. */
export interface TypeMetaRef {
  readonly apiVersion: string;
  readonly kind: string;
}

/** A message with its fields indexed by number and message references resolved. */
export interface CompiledMessage {
  readonly descriptor: MessageDescriptor;
  /** In descriptor order (by number). */
  readonly fields: readonly CompiledField[];
  readonly byNumber: ReadonlyMap<number, CompiledField>;
}

export interface CompiledField {
  readonly descriptor: FieldDescriptor;
  /** The resolved message when the field's type is `message`. */
  readonly message: CompiledMessage | undefined;
}

/**
 * The group version whose kinds (DeleteOptions…) metav1.AddToGroupVersion
 * registers in every group version: typed clients send them with their own
 * apiVersion (`v1`, `apps/v1`).
 */
const META_API_VERSION = 'meta.k8s.io/v1';

/**
 * The protobuf messages a server can decode, from generated descriptors:
 * which kinds have a protobuf form and the message of each. Built once;
 * read-only afterwards.
 */
export class ProtobufScheme {
  private readonly messages = new Map<string, CompiledMessage>();
  private readonly kinds = new Map<string, CompiledMessage>();
  private readonly everyVersionKinds = new Map<string, CompiledMessage>();

  /** Throws when a field names a message no package declares: generated descriptors are inconsistent. */
  constructor(packages: readonly ProtobufPackage[]) {
    const pending: { field: FieldDescriptor; set: (m: CompiledMessage) => void }[] = [];
    for (const pkg of packages) {
      for (const descriptor of pkg.messages) {
        const fields: CompiledField[] = descriptor.fields.map((field) => {
          const compiled: { descriptor: FieldDescriptor; message: CompiledMessage | undefined } = { descriptor: field, message: undefined };
          if (field.type === 'message')
            pending.push({
              field,
              set: (m) => {
                compiled.message = m;
              },
            });
          return compiled;
        });
        const message: CompiledMessage = { descriptor, fields, byNumber: new Map(fields.map((f) => [f.descriptor.number, f])) };
        this.messages.set(descriptor.name, message);
        if (descriptor.kind !== undefined) {
          this.kinds.set(kindKey({ apiVersion: pkg.apiVersion, kind: descriptor.kind }), message);
          if (pkg.apiVersion === META_API_VERSION) this.everyVersionKinds.set(descriptor.kind, message);
        }
      }
    }
    for (const { field, set } of pending) {
      const target = field.message === undefined ? undefined : this.messages.get(field.message);
      if (target === undefined) throw new Error(`protobuf descriptor field ${field.name} refers to unknown message ${field.message ?? '(none)'}`);
      set(target);
    }
  }

  /** The message of a kind; meta.k8s.io/v1 kinds (DeleteOptions) under any apiVersion. Undefined when the kind has no protobuf form. */
  forKind(ref: TypeMetaRef): CompiledMessage | undefined {
    return this.kinds.get(kindKey(ref)) ?? this.everyVersionKinds.get(ref.kind);
  }

  /** Whether bodies of this kind may be sent as protobuf. */
  supports(ref: TypeMetaRef): boolean {
    return this.forKind(ref) !== undefined;
  }
}

function kindKey(ref: TypeMetaRef): string {
  return `${ref.apiVersion}\u0000${ref.kind}`;
}
