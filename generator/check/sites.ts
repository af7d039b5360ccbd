import type { Markers } from '../parse/markers.js';
import type { JSONSchemaProps, ValidationRule } from '../model/schema.js';
import type { SourceLocation } from '../model/types.js';

/** A declaration that produced a schema node: where it is and how messages name it. */
export interface DeclarationSite {
  readonly location: SourceLocation;
  /** `property spec`, `type FlunderSpec`. */
  readonly target: string;
}

/** A CEL rule written by a marker, with the node (still holding `$ref`s) it validates. */
export interface RuleSite extends DeclarationSite {
  readonly node: JSONSchemaProps;
  readonly rule: ValidationRule;
  /** The marker's own position: errors point at the `@validation` (or `@immutable`) line. */
  readonly marker: SourceLocation;
  /** The node is a kind's root: apiVersion, kind and metadata.name are readable. */
  readonly resourceRoot: boolean;
}

/** A `@default` marker and the node its value must satisfy. */
export interface DefaultSite extends DeclarationSite {
  readonly node: JSONSchemaProps;
  readonly marker: SourceLocation;
}

/**
 * What the schema builder records for the checks that need every definition
 * first (CEL rules and defaults validated against the inlined schema, recursion
 * found while inlining a kind): each marker's node and position, and which
 * declaration each property or type node came from.
 */
export class SchemaSites {
  readonly rules: RuleSite[] = [];
  readonly defaults: DefaultSite[] = [];
  private readonly declared = new WeakMap<JSONSchemaProps, DeclarationSite>();
  private readonly strategyValidated = new WeakSet<JSONSchemaProps>();

  /** Records the rules and default `markers` added to `node` (the result of applying them). */
  recordMarkers(node: JSONSchemaProps, markers: Markers, site: DeclarationSite & { readonly resourceRoot: boolean }): void {
    this.declared.set(node, { location: site.location, target: site.target });
    if (markers.has('validatedByStrategy')) this.strategyValidated.add(node);
    const at = (m: { readonly line: number; readonly column: number }): SourceLocation => ({ file: site.location.file, line: m.line, column: m.column });
    // applySchemaMarkers appends the @validation rules in order, then @immutable's, after the
    // rules the node already had (those of an inlined alias are recorded at the alias).
    const written = [...markers.all('validation'), ...markers.all('immutable')];
    const rules = node['x-kubernetes-validations'] ?? [];
    const own = rules.slice(rules.length - written.length);
    written.forEach((m, i) => {
      const rule = own[i];
      if (rule !== undefined) this.rules.push({ ...site, node, rule, marker: at(m) });
    });
    const def = markers.one('default');
    if (def !== undefined && node.default !== undefined) this.defaults.push({ location: site.location, target: site.target, node, marker: at(def) });
  }

  /** Whether `node`'s constraints are published only, the strategy enforcing them (`@validatedByStrategy`). */
  isValidatedByStrategy(node: JSONSchemaProps): boolean {
    return this.strategyValidated.has(node);
  }

  /** The declaration `node` was built from, when it is a property's, a type's or a kind's own node. */
  siteOf(node: JSONSchemaProps): DeclarationSite | undefined {
    return this.declared.get(node);
  }
}
