import type { FieldError } from '../../../runtime/apimachinery/validation/field.js';
import type { RESTStrategy } from '../../../runtime/apimachinery/definition/strategy.js';
import { deepEqualJSON } from '../../../runtime/apimachinery/serializer/jsonvalue.js';
import { validateKubeFinalizerNames } from './objectmeta-validation.js';
import { isConfigMapKey } from './secret-validation.js';
import type { ConfigMap } from './types.js';

/** kube's limit on data and binaryData together (corev1.MaxSecretSize, shared by ConfigMaps). */
const MAX_CONFIGMAP_SIZE = 1024 * 1024;

/**
 * kube's ConfigMap strategy and ValidateConfigMap: keys as IsConfigMapKey, no key in both maps,
 * 1 MiB in total, and an immutable ConfigMap keeps its data and its immutability.
 */
export const ConfigMapStrategy = {
  tablePrinter: {
    kind: 'handwritten',
    cells: {
      Data: (cm: ConfigMap) => Object.keys(cm.data ?? {}).length + Object.keys(cm.binaryData ?? {}).length,
    },
  },
  validate: (cm: ConfigMap) => validateConfigMap(cm),
  // ValidateConfigMapUpdate: ObjectMetaUpdate, immutability, then ValidateConfigMap.
  validateUpdate(cm: ConfigMap, old: ConfigMap): FieldError[] {
    const errs = validateKubeFinalizerNames(cm.metadata);
    if (old.immutable === true) {
      if (cm.immutable !== true) errs.push({ type: 'FieldValueForbidden', field: 'immutable', detail: 'field is immutable when `immutable` is set' });
      // reflect.DeepEqual of the maps: the order a client sends keys in is not a change.
      if (!deepEqualJSON(cm.data ?? {}, old.data ?? {})) errs.push({ type: 'FieldValueForbidden', field: 'data', detail: 'field is immutable when `immutable` is set' });
      if (!deepEqualJSON(cm.binaryData ?? {}, old.binaryData ?? {})) errs.push({ type: 'FieldValueForbidden', field: 'binaryData', detail: 'field is immutable when `immutable` is set' });
    }
    errs.push(...validateConfigMap(cm));
    return errs;
  },
} satisfies RESTStrategy<ConfigMap>;

function validateConfigMap(cm: ConfigMap): FieldError[] {
  const errs: FieldError[] = validateKubeFinalizerNames(cm.metadata);
  let size = 0;
  const data = cm.data ?? {};
  const binary = cm.binaryData ?? {};
  for (const [key, value] of Object.entries(data)) {
    errs.push(...validateKey('data', key));
    // kube reports a key in both maps on the data side.
    if (Object.hasOwn(binary, key)) errs.push({ type: 'FieldValueInvalid', field: `data[${key}]`, badValue: key, detail: 'duplicate of key present in binaryData' });
    size += Buffer.byteLength(value);
  }
  for (const [key, value] of Object.entries(binary)) {
    errs.push(...validateKey('binaryData', key));
    size += Buffer.from(value, 'base64').length;
  }
  // field.TooLong of the whole object (1.32's wording).
  if (size > MAX_CONFIGMAP_SIZE) errs.push({ type: 'FieldValueTooLong', field: '', badValue: '<value omitted>', detail: `may not be more than ${MAX_CONFIGMAP_SIZE} bytes` });
  return errs;
}

/** kube's IsConfigMapKey (shared with Secrets), under `<field>[<key>]`. */
function validateKey(field: string, key: string): FieldError[] {
  return isConfigMapKey(key).map((detail) => ({ type: 'FieldValueInvalid', field: `${field}[${key}]`, badValue: key, detail }));
}
