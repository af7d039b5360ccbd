import type { KindNames } from '../names.js';

/** One file the scaffold writes: project-relative path and its whole text. */
export interface ScaffoldFile {
  readonly path: string;
  readonly content: string;
}

const META = 'kube-ts-apiserver/apis/meta/v1';
const RUNTIME = 'kube-ts-apiserver/runtime';

/** `apis/<group>/<version>/doc.ts`: the package markers. A hub is also where objects are stored. */
export function docFile(n: KindNames, role: 'hub' | 'spoke', hubVersion: string): ScaffoldFile {
  const lines =
    role === 'hub'
      ? [
          ` * Version ${n.version} of ${n.group}: the hub every other version of the group converts`,
          ' * through, and the version objects are stored in.',
          ' *',
          ` * @groupName ${n.group}`,
          ' * @hub',
          ' * @storageVersion',
        ]
      : [` * Version ${n.version} of ${n.group}: served beside ${hubVersion}, converted to and from it`, ' * (conversion.ts).', ' *', ` * @groupName ${n.group}`];
  return { path: `${n.groupDir}/${n.version}/doc.ts`, content: ['/**', ...lines, ' */', 'export {};', ''].join('\n') };
}

/** The kind's types: spec with a CEL rule and defaults, status behind the status subresource. */
export function kindTypes(n: KindNames): string {
  const k = n.kind;
  return `/**
 * ${k}Spec is the desired state of a ${k}.
 *
 * @validation rule="!has(self.replicas) || !has(self.maxReplicas) || self.replicas <= self.maxReplicas" message="replicas must not be greater than maxReplicas"
 */
export interface ${k}Spec {
  /**
   * What the ${k} says.
   *
   * @maxLength 253
   */
  message?: string;
  /**
   * How many replicas the ${k} wants.
   *
   * @minimum 0
   * @default 1
   */
  replicas?: int32;
  /**
   * The most replicas the ${k} may have.
   *
   * @minimum 0
   * @default 10
   */
  maxReplicas?: int32;
}

/** ${k}Status is the observed state of a ${k}, written by its controller (src/controller.ts). */
export interface ${k}Status {
  /** The spec.replicas the controller last saw. */
  observedReplicas?: int32;
  /**
   * The current conditions of the ${k}, one per type.
   *
   * @listType map
   * @listMapKey type
   */
  conditions?: Condition[];
}

/**
 * A ${k} is a kind of ${n.group}/${n.version}.
 *
 * @genclient
 * @resource path=${n.plural} singular=${n.singular}
 * @subresource status
 * @printcolumn name=Replicas type=integer jsonPath=.spec.replicas
 * @printcolumn name=Message type=string jsonPath=.spec.message
 * @printcolumn name=Age type=date jsonPath=.metadata.creationTimestamp
 */
export interface ${k} extends TypeMeta {
  metadata?: ObjectMeta;
  spec?: ${k}Spec;
  status?: ${k}Status;
}
`;
}

/** The import line every types.ts the scaffold writes starts with. */
export const TYPES_IMPORT = `import type { Condition, int32, ObjectMeta, TypeMeta } from '${META}';\n`;

/** `<Kind>Strategy`: what the generic store does beyond the schema. */
export function kindStrategy(n: KindNames): string {
  const k = n.kind;
  return `/**
 * The ${k} strategy: status is written only through the status subresource (a create starts
 * without one, an update keeps the stored one), and an update must name the resourceVersion it
 * replaces.
 */
export const ${k}Strategy = {
  allowUnconditionalUpdate: false,
  prepareForCreate(obj) {
    delete obj.status;
  },
  prepareForUpdate(obj, old) {
    if (old.status === undefined) delete obj.status;
    else obj.status = old.status;
  },
} satisfies RESTStrategy<${k}>;
`;
}

/** `set<Kind>Defaults`: defaults code computes; constant ones are \`@default\` markers. */
export function kindDefaults(n: KindNames): string {
  const k = n.kind;
  return `/** Defaults of a ${k} beyond its @default markers: every ${k} has a spec. Mutates in place. */
export function set${k}Defaults(obj: ${k}): void {
  obj.spec ??= {};
}
`;
}

/** `<Kind>Conversion` of a spoke version: to and from the hub, field by field. */
export function kindConversion(n: KindNames, hubVersion: string): string {
  const k = n.kind;
  return `/**
 * ${k} in ${n.version} and in the hub (${hubVersion}). The scaffold made both versions alike: when a
 * field of this version changes (renamed, split, moved), map it here in both directions.
 */
export const ${k}Conversion = {
  toHub(from: ${k}): hub.${k} {
    return { ...from, apiVersion: '${n.group}/${hubVersion}' };
  },
  fromHub(from: hub.${k}): ${k} {
    return { ...from, apiVersion: '${n.group}/${n.version}' };
  },
} satisfies Conversion<${k}, hub.${k}>;
`;
}

/** A new types.ts, strategy.ts, defaults.ts (and conversion.ts) of a version with one kind. */
export function versionFiles(n: KindNames, role: 'hub' | 'spoke', hubVersion: string): ScaffoldFile[] {
  const dir = `${n.groupDir}/${n.version}`;
  const files: ScaffoldFile[] = [
    docFile(n, role, hubVersion),
    { path: `${dir}/types.ts`, content: `${TYPES_IMPORT}\n${kindTypes(n)}` },
    { path: `${dir}/strategy.ts`, content: `import type { RESTStrategy } from '${RUNTIME}';\nimport type { ${n.kind} } from './types.js';\n\n${kindStrategy(n)}` },
    { path: `${dir}/defaults.ts`, content: `import type { ${n.kind} } from './types.js';\n\n${kindDefaults(n)}` },
  ];
  if (role === 'spoke') {
    files.push({
      path: `${dir}/conversion.ts`,
      content: `import type { Conversion } from '${RUNTIME}';\nimport type * as hub from '../${hubVersion}/types.js';\nimport type { ${n.kind} } from './types.js';\n\n${kindConversion(n, hubVersion)}`,
    });
  }
  return files;
}

/** What a group declares beyond its types (apis/<group>/group.ts), and its admission plugin. */
export function groupFiles(n: KindNames): ScaffoldFile[] {
  return [
    {
      path: `${n.groupDir}/group.ts`,
      content: `import type { APIGroupDeclaration } from '${RUNTIME}';
import { reservedNames } from './admission.js';

/**
 * What ${n.group} declares beyond its types: its admission plugins (and, when it needs them, the
 * server that owns it and REST overrides). The generated registry carries it to the server.
 */
export const group = {
  admissionPlugins: [() => reservedNames()],
} satisfies APIGroupDeclaration;
`,
    },
    {
      path: `${n.groupDir}/admission.ts`,
      content: `import { newForbidden } from '${RUNTIME}';
import type { Attributes, Operation, ValidationInterface } from '${RUNTIME}';

/** Names no object of ${n.group} may be created with. */
export const RESERVED_NAMES: ReadonlySet<string> = new Set(['default', 'system']);

/**
 * ReservedNames, a validating admission plugin: an object of ${n.group} may not be created under a
 * reserved name. Plugins see every write the server admits, so it checks the group first.
 */
export function reservedNames(): ValidationInterface {
  return {
    name: 'ReservedNames',
    handles: (op: Operation) => op === 'CREATE',
    async validate(a: Attributes): Promise<void> {
      if (a.group !== '${n.group}' || !RESERVED_NAMES.has(a.name)) return;
      throw newForbidden({ group: a.group, resource: a.resource }, a.name, \`the name \${a.name} is reserved\`);
    },
  };
}
`,
    },
  ];
}
