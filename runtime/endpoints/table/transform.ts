import type { IncludeObjectPolicy, Table } from '../../../apis/meta/v1/table.js';
import { newBadRequest, newNotAcceptableMessage } from '../../apimachinery/errors/index.js';
import { formatFieldError } from '../../apimachinery/validation/field.js';
import type { GroupVersionKind } from '../negotiation/negotiate.js';
import type { TableConvertor, TableSource } from './convertor.js';

/**
 * The object transformations a client can ask for with `as=` (handlers/response.go):
 * Table, PartialObjectMetadata and PartialObjectMetadataList, all in meta.k8s.io v1 or v1beta1.
 */

export interface TableOptions {
  readonly includeObject: IncludeObjectPolicy | '';
  /** Set after the first event of a watch: later tables carry no column definitions. */
  noHeaders: boolean;
}

const INCLUDE_OBJECT_VALUES = ['', 'Metadata', 'None', 'Object'];

/** TableOptions from the query; an unknown includeObject is a 400 as ValidateTableOptions words it (a field.Invalid, not a NotSupported). */
export function parseTableOptions(query: URLSearchParams): TableOptions {
  const includeObject = query.get('includeObject') ?? '';
  if (!INCLUDE_OBJECT_VALUES.includes(includeObject)) {
    throw newBadRequest(
      `Unable to convert to Table as requested: ${formatFieldError({ type: 'FieldValueInvalid', field: 'includeObject', badValue: includeObject, detail: "must be 'Metadata', 'Object', 'None', or empty" })}`,
    );
  }
  return { includeObject: includeObject as TableOptions['includeObject'], noHeaders: false };
}

const META_VERSIONS: ReadonlySet<string> = new Set(['v1', 'v1beta1']);

/**
 * A versioned object or list, transformed as `convert` asks; Status objects pass unchanged.
 * `goType` is how Go's %T prints the object kube's handler holds (the registry's type, e.g.
 * `*core.ConfigMapList`, `*unstructured.UnstructuredList`), which the 406s name.
 */
export function transformObject(obj: TableSource, isList: boolean, convert: GroupVersionKind, convertor: TableConvertor | undefined, tableOptions: TableOptions | undefined, goType: string): unknown {
  if (obj['kind'] === 'Status' && obj['apiVersion'] === 'v1') return obj;
  switch (convert.kind) {
    case 'PartialObjectMetadata':
      return asPartialObjectMetadata(obj, isList, convert.version, goType);
    case 'PartialObjectMetadataList':
      return asPartialObjectMetadataList(obj, isList, convert.version, goType);
    case 'Table':
      if (convertor === undefined || tableOptions === undefined) throw newNotAcceptableMessage('no Table convertor for this resource');
      return asTable(obj, isList, convert.version, convertor, tableOptions);
    default:
      throw newNotAcceptableMessage(`no ${convert.kind} exists in group version ${convert.group}/${convert.version}`);
  }
}

function asTable(obj: TableSource, isList: boolean, version: string, convertor: TableConvertor, opts: TableOptions): Table {
  if (!META_VERSIONS.has(version)) throw newNotAcceptableMessage(`no Table exists in group version meta.k8s.io/${version}`);
  const table = convertor.convertToTable(obj, { noHeaders: opts.noHeaders, isList });
  table.apiVersion = `meta.k8s.io/${version}`;
  for (const row of table.rows) {
    const item = row.object as TableSource | undefined;
    switch (opts.includeObject) {
      case 'Object':
        break;
      case 'None':
        // kube clears the row's RawExtension, which encodes as null (TableRow.object's omitempty
        // does not apply to a struct).
        row.object = null;
        break;
      default:
        row.object = partial(item, version) as unknown as typeof row.object;
    }
  }
  return table;
}

function partial(obj: TableSource | undefined, version: string): Record<string, unknown> {
  return { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${version}`, metadata: obj?.metadata ?? {} };
}

function asPartialObjectMetadata(obj: TableSource, isList: boolean, version: string, goType: string): unknown {
  if (isList) throw newNotAcceptableMessage(`you requested PartialObjectMetadata, but the requested object is a list (${goType})`);
  if (!META_VERSIONS.has(version)) throw newNotAcceptableMessage(`no PartialObjectMetadataList exists in group version meta.k8s.io/${version}`);
  return partial(obj, version);
}

function asPartialObjectMetadataList(obj: TableSource, isList: boolean, version: string, goType: string): unknown {
  if (!isList) throw newNotAcceptableMessage(`you requested PartialObjectMetadataList, but the requested object is not a list (${goType})`);
  if (!META_VERSIONS.has(version)) throw newNotAcceptableMessage(`no PartialObjectMetadataList exists in group version meta.k8s.io/${version}`);
  const m = obj.metadata ?? {};
  const metadata: Record<string, unknown> = {};
  if (typeof m.resourceVersion === 'string' && m.resourceVersion !== '') metadata['resourceVersion'] = m.resourceVersion;
  if (typeof m.continue === 'string' && m.continue !== '') metadata['continue'] = m.continue;
  if (typeof m.remainingItemCount === 'number') metadata['remainingItemCount'] = m.remainingItemCount;
  return {
    kind: 'PartialObjectMetadataList',
    apiVersion: `meta.k8s.io/${version}`,
    metadata,
    items: (obj.items ?? []).map((item) => partial(item as TableSource, version)),
  };
}
