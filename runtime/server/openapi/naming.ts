/**
 * kube-apiserver's operation naming (endpoints/openapi GetOperationIDAndTagsFromRoute):
 * `<verb><Group><Version><Rest>`, group from the path with `.k8s.io` trimmed and `core` for
 * /api, each part made a valid identifier by dropping other characters and capitalizing the
 * letter after them (`example.com` → `ExampleCom`).
 */
export function toValidOperationID(s: string, capitalizeFirst: boolean): string {
  let out = '';
  let capitalize = capitalizeFirst;
  let i = 0;
  for (const ch of s) {
    const keep = /\p{L}/u.test(ch) || ch === '_' || (i !== 0 && /\p{Nd}/u.test(ch));
    if (keep) {
      out += capitalize ? ch.toUpperCase() : ch;
      capitalize = false;
    } else capitalize = true;
    i++;
  }
  return out;
}

function groupPart(group: string): string {
  return group === '' ? 'core' : group.endsWith('.k8s.io') ? group.slice(0, -'.k8s.io'.length) : group;
}

/** `ExampleComV1alpha1`, `CoreV1`, `ApiextensionsV1`. */
export function operationGroupVersion(group: string, version: string): string {
  return toValidOperationID(groupPart(group), true) + toValidOperationID(version, true);
}

/** `exampleCom_v1alpha1`, `core_v1`. */
export function operationTag(group: string, version: string): string {
  return `${toValidOperationID(groupPart(group), false)}_${toValidOperationID(version, false)}`;
}

/** The REST path prefix of a group version: `/api/v1` or `/apis/<group>/<version>`. */
export function groupVersionPath(group: string, version: string): string {
  return group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
}

/** The key of a group version's document under /openapi/v3: `api/v1` or `apis/<group>/<version>`. */
export function openAPIGroupVersionKey(group: string, version: string): string {
  return groupVersionPath(group, version).slice(1);
}
