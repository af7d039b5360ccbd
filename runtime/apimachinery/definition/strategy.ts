import type { FieldError } from '../validation/field.js';

/**
 * The hand-written behaviour of a kind, as k8s.io/apiserver's
 * RESTCreateStrategy/RESTUpdateStrategy: a plain object exported from
 * `apis/<group>/<hub-version>/strategy.ts` as `<Kind>Strategy` and checked
 * with `satisfies RESTStrategy<Kind>`. It always sees hub-version objects,
 * after schema validation and defaulting. Every hook is optional.
 */
export interface RESTStrategy<T> {
  /** Clears fields the client may not set on create (status, …). May mutate `obj`. */
  prepareForCreate?(obj: T): void;
  /** Carries over fields the client may not change on update. May mutate `obj`, never `old`. */
  prepareForUpdate?(obj: T, old: T): void;
  /** Validation beyond the schema; returns the field errors (empty when valid). */
  validate?(obj: T): readonly FieldError[];
  validateUpdate?(obj: T, old: T): readonly FieldError[];
  /** Warnings returned to the client as `Warning` headers. */
  warningsOnCreate?(obj: T): readonly string[];
  warningsOnUpdate?(obj: T, old: T): readonly string[];
  /** Normalizes an object before it is stored. May mutate `obj`. */
  canonicalize?(obj: T): void;
  /** Whether PUT of a missing object creates it. Default false. */
  readonly allowCreateOnUpdate?: boolean;
  /**
   * Whether PUT without metadata.resourceVersion overwrites whatever is stored (kube's
   * AllowUnconditionalUpdate); when false such a PUT is 422 on metadata.resourceVersion. Default
   * true, kube's answer for its built-in kinds (Namespaces, Services, Endpoints); custom
   * resources, CRDs, APIServices and sample-apiserver's kinds declare false.
   */
  readonly allowUnconditionalUpdate?: boolean;
  /**
   * Validates metadata.name (and the generated name) on create; returns the problems
   * (path.ValidatePathSegmentName-style messages). Default: DNS-1123 subdomain, as for
   * custom resources. Kinds with stricter names (Namespace: DNS-1123 label) set it here
   * rather than in `validate`, so a bad name is reported once.
   */
  validateName?(name: string): readonly string[];
  /**
   * Which of kube's Table convertors serves the kind (runtime/endpoints/table/printer.ts).
   * Absent: the column convertor over the kind's printer columns (@printcolumn), or, for a kind
   * that declares none, kube's default convertor (Name, Created At), as an aggregated server's
   * kind without a printer of its own (rest.NewDefaultTableConvertor).
   */
  readonly tablePrinter?: TablePrinterDeclaration<T>;
  /** What deleting without an explicit propagation policy does (kube's DefaultGarbageCollectionPolicy). Default: no finalizer. */
  readonly defaultGarbageCollectionPolicy?: 'OrphanDependents' | 'DeleteDependents' | 'Unsupported';
  /**
   * Hooks of the /status subresource (kube's <kind>StatusStrategy). The generic store already
   * copies everything but `status` from the stored object before these run.
   */
  readonly status?: RESTStatusStrategy<T>;
  /**
   * Top-level fields the main resource's update resets beyond the generic ones (status, when a
   * status subresource exists): nobody owns them through the main resource (ResetFieldsStrategy).
   */
  readonly resetFields?: readonly string[];
}

export interface RESTStatusStrategy<T> {
  /** May mutate `obj`, never `old`. */
  prepareForUpdate?(obj: T, old: T): void;
  validateUpdate?(obj: T, old: T): readonly FieldError[];
  warningsOnUpdate?(obj: T, old: T): readonly string[];
  /** Top-level fields the status update resets besides `spec`, e.g. `metadata` (ResetFieldsStrategy). */
  readonly resetFields?: readonly string[];
}

/**
 * A kind's Table convertor, as its author declares it:
 *
 * - `handwritten`: a port of one of kube's hand-written printers (pkg/printers/internalversion):
 *   it lays out the kind's printer columns itself, so a column that is the name (`.metadata.name`,
 *   format `name`) stands where it is declared, and `cells` compute by column name what no
 *   JSONPath can (APIService's `Local`).
 * - `columns`: the column convertor (apiextensions-apiserver's tableconvertor for CRDs): Name
 *   first, then every printer column, or `Age` when there is none.
 * - `default`: kube's default convertor (rest.NewDefaultTableConvertor, also the layout of the
 *   printers of Roles and ClusterRoles): Name and the creation time (RFC 3339), whatever columns
 *   the kind declares.
 */
export type TablePrinterDeclaration<T> = { readonly kind: 'handwritten'; readonly cells?: Readonly<Record<string, (obj: T) => unknown>> } | { readonly kind: 'columns' } | { readonly kind: 'default' };
