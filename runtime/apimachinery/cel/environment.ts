import { Environment } from '@marcbachmann/cel-js';
import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
import { instrumentEnvironment, type Overrides } from './engine.js';
import { celEquals } from './equality.js';
import { registerCheckedHas } from './has.js';
import { METHOD_OVERRIDES, registerKubernetesLibraries } from './library/index.js';
import { listOperatorOverrides } from './listtypes.js';
import { declTypeOf, type DeclType } from './model.js';

/**
 * The CEL environments of `x-kubernetes-validations` rules. A base environment holds the
 * language options and the Kubernetes libraries; each schema node's rules get a clone with
 * `self` and `oldSelf` typed from the node (object types named `selfType`, `selfType.spec`…,
 * so a rule naming a field the schema does not have fails to compile) and an instrumented
 * evaluator (cost, Go semantics: engine.ts). Environments are built once per DeclType.
 */

let base: Environment | undefined;

/** What the engine runs instead of cel-js: Go/RE2 methods, list-type semantics of == and +. */
const OVERRIDES: Overrides = { methods: METHOD_OVERRIDES, operators: listOperatorOverrides(celEquals) };

function baseEnvironment(): Environment {
  if (base === undefined) {
    // Optional types (`self.?field`, optionalOldSelf) are on since Kubernetes 1.28. Aggregate
    // literals stay heterogeneous-friendly: cel-js cannot mix dyn with typed elements otherwise.
    base = new Environment({ homogeneousAggregateLiterals: false, enableOptionalTypes: true });
    registerKubernetesLibraries(base);
    registerCheckedHas(base);
  }
  return base;
}

interface Environments {
  plain?: Environment;
  optionalOldSelf?: Environment;
}
const cache = new WeakMap<DeclType, Environments>();

/**
 * The environment of rules declared on a node of this type. With optionalOldSelf, `oldSelf`
 * is `optional<T>` (the rule also runs on create, with optional.none()).
 */
export function ruleEnvironment(decl: DeclType, optionalOldSelf = false): Environment {
  let envs = cache.get(decl);
  if (envs === undefined) cache.set(decl, (envs = {}));
  const key = optionalOldSelf ? 'optionalOldSelf' : 'plain';
  let env = envs[key];
  if (env === undefined) {
    env = baseEnvironment().clone();
    const registrar = new TypeRegistrar(env);
    const selfType = registrar.typeOf(decl, 'selfType', 'selfType');
    typeNames.set(env, registrar.kubeNames);
    env.registerVariable('self', selfType);
    env.registerVariable('oldSelf', optionalOldSelf ? `optional<${selfType}>` : selfType);
    instrumentEnvironment(env, OVERRIDES);
    envs[key] = env;
  }
  return env;
}

/**
 * The environment of rules declared on `schema`, or undefined when CEL cannot see values of
 * the schema (no type). isResourceRoot for the root of a kind or an embedded resource.
 */
export function environmentFor(schema: JSONSchemaProps, opts: { isResourceRoot?: boolean; optionalOldSelf?: boolean } = {}): Environment | undefined {
  const decl = declTypeOf(schema, opts.isResourceRoot ?? false);
  return decl === undefined ? undefined : ruleEnvironment(decl, opts.optionalOldSelf ?? false);
}

const typeNames = new WeakMap<Environment, ReadonlyMap<string, string>>();

/**
 * The object types of a rule environment by their cel-js name, as kube names them
 * (DeclType.MaybeAssignTypeName: `selfType.spec`, list items `….@idx`, map values `….@elem`;
 * the root's nanosecond suffix is added where a name is printed).
 */
export function kubeTypeNames(env: Environment): ReadonlyMap<string, string> | undefined {
  return typeNames.get(env);
}

/** Registers the object types of a DeclType tree in one environment, each under one name. */
class TypeRegistrar {
  private readonly names = new Map<DeclType, string>();
  private readonly used = new Set<string>();
  readonly kubeNames = new Map<string, string>();

  constructor(private readonly env: Environment) {}

  typeOf(decl: DeclType, name: string, kubeName: string): string {
    switch (decl.kind) {
      case 'dyn':
        return 'dyn';
      case 'list':
        return `list<${this.typeOf(decl.items, name, `${kubeName}.@idx`)}>`;
      case 'map':
        return `map<string, ${this.typeOf(decl.value, name, `${kubeName}.@elem`)}>`;
      case 'scalar':
        switch (decl.scalar) {
          case 'timestamp':
            return 'google.protobuf.Timestamp';
          case 'duration':
            return 'google.protobuf.Duration';
          default:
            return decl.scalar;
        }
      case 'object': {
        const known = this.names.get(decl);
        if (known !== undefined) return known;
        const typeName = this.unique(name);
        this.names.set(decl, typeName);
        this.kubeNames.set(typeName, kubeName);
        const fields: Record<string, string> = {};
        for (const [escaped, field] of decl.fields) fields[escaped] = this.typeOf(field.type, `${typeName}.${escaped.replace(/\W/g, '_')}`, `${kubeName}.${escaped}`);
        this.env.registerType(typeName, { ctor: decl.ctor, fields });
        // CEL compares objects structurally; cel-js has no == for declared types of its own.
        this.env.registerOperator(`${typeName} == ${typeName}`, (a: unknown, b: unknown) => celEquals(a, b));
        return typeName;
      }
    }
  }

  private unique(name: string): string {
    let candidate = name;
    for (let i = 2; this.used.has(candidate); i++) candidate = `${name}_${i}`;
    this.used.add(candidate);
    return candidate;
  }
}
