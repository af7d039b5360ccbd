import type { ScratchProject } from './harness.js';

/**
 * A scratch group whose exported CRDs exercise every marker of generator/parse/vocabulary.ts
 * that reaches a CRD, in two versions of the group:
 *
 * - Gadget differs between v1 (the hub and storage version) and v1beta1 (a conversion renames
 *   spec.length to spec.replicas): its CRD names a conversion webhook.
 * - Switch has one schema in both versions (strategy None), with the strings YAML 1.1 reads as
 *   other types as enum values, defaults and property names.
 * - Beacon carries protobuf field numbers, Notice is read-only and v1 only.
 */
export const MANIFEST_GROUP = 'manifests.example.com';

/** Strings YAML 1.1 (or go-yaml v2) reads as booleans, nulls, numbers, times or merge keys. */
export const TYPED_LOOKING: readonly string[] = [
  'y',
  'Y',
  'n',
  'N',
  'yes',
  'Yes',
  'YES',
  'no',
  'No',
  'NO',
  'on',
  'On',
  'ON',
  'off',
  'Off',
  'OFF',
  'true',
  'True',
  'TRUE',
  'false',
  'False',
  'FALSE',
  'null',
  'Null',
  'NULL',
  '~',
  '',
  '1',
  '-1',
  '+1',
  '0',
  '-0',
  '1.0',
  '1.',
  '.5',
  '+.5',
  '-.5',
  '1e3',
  '1E3',
  '1e+3',
  '1e-3',
  '0x1F',
  '0X1F',
  '0x_1F',
  '012',
  '0o17',
  '0O17',
  '0b101',
  '0B101',
  '-0b1',
  '1_000',
  '1__0',
  '-_1',
  '1e3_',
  '.inf',
  '-.inf',
  '+.inf',
  '.Inf',
  '.INF',
  '.nan',
  '.NaN',
  '.NAN',
  '1:20',
  '-1:20',
  '190:20:30',
  '1:20.5',
  '2001-12-14',
  '2001-1-4',
  '2001-12-14t21:59:43.10-05:00',
  '2001-12-14 21:59:43.10 -5',
  '<<',
];

const META = "import type { IntOrString, ObjectMeta, TypeMeta, int32 } from '../../meta/v1/types.js';";

const SWITCH = `
/**
 * A cluster-scoped switch whose values are words YAML 1.1 reads as booleans, nulls and numbers.
 *
 * @genclient
 * @nonNamespaced
 * @onlyVerbs get,list,watch,create,update,patch,delete
 */
export interface Switch extends TypeMeta {
  metadata?: ObjectMeta;
  spec?: SwitchSpec;
}

export interface SwitchSpec {
  /**
   * The answer; a string-literal union is an enum.
   *
   * @default n
   */
  answer?: 'y' | 'n' | 'on' | 'off' | '1.0';
  /**
   * An enum by marker.
   *
   * @enum yes;no;true;false;null;~;012;0x1F;1e3;1_000;.5;.inf;1:20;2001-12-14
   * @default "yes"
   */
  word?: string;
  /** Property names YAML 1.1 reads as booleans. */
  y?: string;
  n?: string;
  on?: string;
  off?: string;
  yes?: string;
  no?: string;
}
`;

const HUB_TYPES = `${META}

export interface Port {
  name: string;
  /** @default TCP */
  protocol?: string;
  port?: int32;
}

/**
 * What a Gadget should be.
 *
 * @validation rule="!has(self.minReplicas) || !has(self.replicas) || self.replicas >= self.minReplicas" message="replicas below minReplicas" fieldPath=".replicas" reason=FieldValueInvalid
 */
export interface GadgetSpec {
  /**
   * How many.
   *
   * @minimum 0
   * @maximum 100
   * @default 1
   */
  replicas?: int32;
  /** @minimum 0 */
  minReplicas?: int32;
  /**
   * @minimum 0
   * @exclusiveMinimum
   * @maximum 1
   * @exclusiveMaximum
   */
  ratio?: number;
  /** @multipleOf 5 */
  step?: int32;
  /**
   * @minLength 1
   * @maxLength 63
   * @pattern ^[a-z]+$
   */
  name?: string;
  /** @format date-time */
  created?: string;
  /**
   * @minItems 1
   * @maxItems 8
   * @listType set
   */
  tags?: string[];
  /**
   * @listType map
   * @listMapKey name
   * @listMapKey protocol
   * @patchStrategy merge
   * @patchMergeKey name
   */
  ports?: Port[];
  /** @listType atomic */
  args?: string[];
  /** @uniqueItems */
  ids?: int32[];
  /**
   * @minProperties 1
   * @maxProperties 8
   * @mapType granular
   */
  labels?: Record<string, string>;
  /**
   * @enum Fast;Slow
   * @default Fast
   */
  mode?: string;
  /** @nullable */
  note?: string;
  /** @example ["a","b"] */
  samples?: string[];
  /** @title Gadget colour */
  colour?: string;
  /** @structType atomic */
  config?: { a?: string; b?: string };
  /** @intOrString */
  port?: IntOrString;
  /**
   * @embeddedResource
   * @preserveUnknownFields
   */
  template?: Record<string, unknown>;
  /** @preserveUnknownFields */
  extra?: { known?: string };
  /** @type integer */
  count?: number;
  /**
   * @schemaless
   * @preserveUnknownFields
   */
  blob?: { a?: string };
  /** @immutable */
  serial?: string;
  /**
   * @validation rule="self >= 0" message="must not be negative"
   * @validation rule="self < 100" messageExpression="string(self) + ' is too big'"
   */
  weight?: int32;
  /** @required */
  owner?: string;
  /** @optional */
  team: string;
}

export interface GadgetStatus {
  replicas?: int32;
  selector?: string;
  phase?: string;
}

/**
 * A Gadget uses every marker a CRD carries.
 *
 * @genclient
 * @resource path=gadgets singular=gadget shortName=gd;gdt categories=all;manifests
 * @subresource status
 * @subresource scale specpath=.spec.replicas statuspath=.status.replicas selectorpath=.status.selector
 * @printcolumn name=Replicas type=integer jsonPath=.spec.replicas description="Desired replicas" priority=1
 * @printcolumn name=Phase type=string jsonPath=.status.phase
 * @printcolumn name=Created type=string jsonPath=.spec.created format=date-time
 * @selectableField jsonPath=.spec.mode
 * @validation rule="self.metadata.name.size() <= 40" message="name too long"
 */
export interface Gadget extends TypeMeta {
  metadata?: ObjectMeta;
  spec?: GadgetSpec;
  status?: GadgetStatus;
}

export interface BeaconSpec {
  /** @protobuf 1 */
  signal?: string;
}

/**
 * A kind with protobuf field numbers.
 *
 * @genclient
 * @skipVerbs deletecollection
 */
export interface Beacon extends TypeMeta {
  /** @protobuf 1 */
  metadata?: ObjectMeta;
  /** @protobuf 2 */
  spec?: BeaconSpec;
}

/**
 * A read-only kind, served in v1 only.
 *
 * @genclient
 * @readonly
 */
export interface Notice extends TypeMeta {
  metadata?: ObjectMeta;
  text?: string;
}
${SWITCH}`;

const SPOKE_TYPES = `${META}

/** What a Gadget should be, as v1beta1 said it. */
export interface GadgetSpec {
  /** @minimum 0 */
  length?: int32;
  mode?: string;
  team: string;
}

/**
 * A Gadget of v1beta1: spec.length is v1's spec.replicas.
 *
 * @genclient
 * @resource path=gadgets singular=gadget shortName=gd;gdt categories=all;manifests
 * @subresource status
 */
export interface Gadget extends TypeMeta {
  metadata?: ObjectMeta;
  spec?: GadgetSpec;
  status?: { replicas?: int32; selector?: string; phase?: string };
}

export interface BeaconSpec {
  /** @protobuf 1 */
  signal?: string;
}

/**
 * A kind with protobuf field numbers.
 *
 * @genclient
 * @skipVerbs deletecollection
 */
export interface Beacon extends TypeMeta {
  /** @protobuf 1 */
  metadata?: ObjectMeta;
  /** @protobuf 2 */
  spec?: BeaconSpec;
}
${SWITCH}`;

const CONVERSION = `import type { Conversion } from '../../../runtime/apimachinery/scheme/conversion.js';
import type * as hub from '../v1/types.js';
import type { Gadget } from './types.js';

/** v1beta1 calls v1's spec.replicas spec.length. */
export const GadgetConversion = {
  toHub(from: Gadget): hub.Gadget {
    const { spec, ...rest } = from;
    if (spec === undefined) return { ...rest, apiVersion: '${MANIFEST_GROUP}/v1' };
    const { length, ...same } = spec;
    return { ...rest, apiVersion: '${MANIFEST_GROUP}/v1', spec: { ...same, ...(length === undefined ? {} : { replicas: length }) } };
  },
  fromHub(from: hub.Gadget): Gadget {
    const { spec, ...rest } = from;
    if (spec === undefined) return { ...rest, apiVersion: '${MANIFEST_GROUP}/v1beta1' };
    const out: Gadget['spec'] = { team: spec.team };
    if (spec.replicas !== undefined) out.length = spec.replicas;
    if (spec.mode !== undefined) out.mode = spec.mode;
    return { ...rest, apiVersion: '${MANIFEST_GROUP}/v1beta1', spec: out };
  },
} satisfies Conversion<Gadget, hub.Gadget>;
`;

/** Writes the group into apis/manifests/ of a scratch project. */
export function writeManifestGroup(project: ScratchProject): void {
  project.write('apis/manifests/v1/doc.ts', `/**\n * @groupName ${MANIFEST_GROUP}\n * @hub\n * @storageVersion\n * @openapiModelPackage com.example.manifests.v1\n */\nexport {};\n`);
  project.write('apis/manifests/v1/types.ts', HUB_TYPES);
  project.write('apis/manifests/v1beta1/doc.ts', `/**\n * @groupName ${MANIFEST_GROUP}\n * @deprecatedVersion warning="${MANIFEST_GROUP}/v1beta1 is deprecated; use v1"\n */\nexport {};\n`);
  project.write('apis/manifests/v1beta1/types.ts', SPOKE_TYPES);
  project.write('apis/manifests/v1beta1/conversion.ts', CONVERSION);
}
