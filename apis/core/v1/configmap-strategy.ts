import type { FieldError } from '../../../runtime/apimachinery/validation/field.js';
import type { RESTStrategy } from '../../../runtime/apimachinery/definition/strategy.js';
import type { ConfigMap } from './types.js';

/** kube's limit on data and binaryData together (corev1.MaxSecretSize, shared by ConfigMaps). */
const MAX_CONFIGMAP_SIZE = 1024 * 1024;
const KEY = /^[-._a-zA-Z0-9]+$/;

/**
 * kube's ConfigMap strategy and ValidateConfigMap: keys as IsConfigMapKey, no key in both maps,
 * 1 MiB in total, and an immutable ConfigMap keeps its data and its immutability.
 */
export const ConfigMapStrategy = {
  printerCells: {
    Data: (cm: ConfigMap) => Object.keys(cm.data ?? {}).length + Object.keys(cm.binaryData ?? {}).length,
  },
  validate: (cm: ConfigMap) => validateConfigMap(cm),
  validateUpdate(cm: ConfigMap, old: ConfigMap): FieldError[] {
    const errs = validateConfigMap(cm);
    if (old.immutable === true) {
      if (cm.immutable !== true) errs.push({ type: 'FieldValueForbidden', field: 'immutable', detail: 'field is immutable when `immutable` is set' });
      if (JSON.stringify(cm.data ?? {}) !== JSON.stringify(old.data ?? {}) || JSON.stringify(cm.binaryData ?? {}) !== JSON.stringify(old.binaryData ?? {})) {
        errs.push({ type: 'FieldValueForbidden', field: 'data', detail: 'field is immutable when `immutable` is set' });
      }
    }
    return errs;
  },
} satisfies RESTStrategy<ConfigMap>;

function validateConfigMap(cm: ConfigMap): FieldError[] {
  const errs: FieldError[] = [];
  let size = 0;
  const data = cm.data ?? {};
  const binary = cm.binaryData ?? {};
  for (const [key, value] of Object.entries(data)) {
    errs.push(...validateKey('data', key));
    size += Buffer.byteLength(value);
  }
  for (const [key, value] of Object.entries(binary)) {
    errs.push(...validateKey('binaryData', key));
    if (Object.hasOwn(data, key)) errs.push({ type: 'FieldValueInvalid', field: `binaryData[${key}]`, badValue: key, detail: 'duplicate of key present in data' });
    size += Buffer.from(value, 'base64').length;
  }
  if (size > MAX_CONFIGMAP_SIZE) errs.push({ type: 'FieldValueTooLong', field: '', badValue: '<value omitted>', detail: `must have at most ${MAX_CONFIGMAP_SIZE} bytes` });
  return errs;
}

function validateKey(field: string, key: string): FieldError[] {
  const path = `${field}[${key}]`;
  const out: FieldError[] = [];
  if (key.length > 253) out.push({ type: 'FieldValueInvalid', field: path, badValue: key, detail: 'must be no more than 253 characters' });
  if (!KEY.test(key))
    out.push({
      type: 'FieldValueInvalid',
      field: path,
      badValue: key,
      detail: "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
    });
  if (key === '.' || key === '..') out.push({ type: 'FieldValueInvalid', field: path, badValue: key, detail: `must not be '${key}'` });
  return out;
}
