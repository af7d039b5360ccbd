import type { int32, RawExtension } from './scalars.js';
import type { ConditionStatus, ListMeta, TypeMeta } from './types.js';

/**
 * A tabular view of resources, returned instead of the objects when a client
 * asks for `as=Table` (kubectl get). The server chooses the columns.
 */
export interface Table extends TypeMeta {
  /** Standard list metadata, copied from the list the table was made from. */
  metadata?: ListMeta;
  /**
   * The columns; each row has one cell per column. Null in watch events after the first, which carry no headers.
   *
   * @listType atomic
   */
  columnDefinitions: TableColumnDefinition[] | null;
  /**
   * The rows, one per object.
   *
   * @listType atomic
   */
  rows: TableRow[];
}

/** Describes one column of a Table. */
export interface TableColumnDefinition {
  /** A human-readable column name. */
  name: string;
  /** An OpenAPI type for the cells: string, integer, number, boolean or date. */
  type: string;
  /** An optional OpenAPI format refining the type; `name` marks the column holding the object's name. */
  format: string;
  /** A human-readable description of the column. */
  description: string;
  /** The column's importance; 0 is always shown, higher values only in wide output. */
  priority: int32;
}

/** One row of a Table. */
export interface TableRow {
  /**
   * The cells, one per column definition: strings, numbers, booleans, simple maps, lists or null.
   *
   * @listType atomic
   * @preserveUnknownFields
   */
  cells: unknown[];
  /**
   * Row-level conditions for display; the only defined type is Completed.
   *
   * @listType atomic
   */
  conditions?: TableRowCondition[];
  /**
   * The object the row shows, as includeObject asked: null for None (kube's empty RawExtension encodes as null), a PartialObjectMetadata for Metadata (the default), the whole object for Object.
   */
  object?: RawExtension | null;
}

/** The type of a row condition; `Completed` marks an object that has run to completion. The set is open-ended. */
export type RowConditionType = string;

/** Marks a row with additional display information. */
export interface TableRowCondition {
  /** The condition type. */
  type: RowConditionType;
  /** Whether the condition holds. */
  status: ConditionStatus;
  /** A machine-readable reason for the last transition. */
  reason?: string;
  /** A human-readable message about the last transition. */
  message?: string;
}

/** Which part of each object a Table row includes. */
export type IncludeObjectPolicy = 'None' | 'Metadata' | 'Object';

/** Options of a request for a Table. */
export interface TableOptions extends TypeMeta {
  /** Include nothing (`None`), the metadata as PartialObjectMetadata (`Metadata`, the default), or the whole object (`Object`). */
  includeObject?: IncludeObjectPolicy;
}
