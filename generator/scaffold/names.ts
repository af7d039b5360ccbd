import { groupClientName, groupVersionAccessor, lowerFirst, pluralize } from '../model/names.js';
import { VERSION_DIR } from '../parse/packages.js';

/** A bad argument of the scaffold command: printed as it is, exit code 2 for usage, 1 otherwise. */
export class ScaffoldError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'ScaffoldError';
  }
}

/** How one kind of one group version is spelled everywhere: directories, markers, generated accessors. */
export interface KindNames {
  /** `shop.example.com` */
  readonly group: string;
  /** `apis/shop`: the group's first DNS label, as apis/wardle holds wardle.example.com. */
  readonly groupDir: string;
  readonly version: string;
  /** `Widget` */
  readonly kind: string;
  /** `widgets`: the resource, as the generator pluralizes it. */
  readonly plural: string;
  readonly singular: string;
  /** `shop`: the group's accessor in the generated informer factory. */
  readonly clientName: string;
  /** `shopV1`: the clientset's accessor of the group version. */
  readonly versionAccessor: string;
  /** `widgets`: the accessor of the resource in a group version client and informer set. */
  readonly resourceAccessor: string;
}

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const KIND = /^[A-Z][A-Za-z0-9]*$/;

/**
 * Checks the scaffold's --group, --version and --kind as kube checks an API group's (a DNS
 * subdomain with at least one dot, as a CRD's group must have), a version directory's and a kind's
 * name, and derives the rest.
 */
export function kindNames(group: string, version: string, kind: string): KindNames {
  if (group.length > 253 || !DNS1123_SUBDOMAIN.test(group) || !group.includes('.')) {
    throw new ScaffoldError(`--group "${group}": must be a DNS subdomain with at least one dot (e.g. shop.example.com)`, 2);
  }
  if (!VERSION_DIR.test(version)) throw new ScaffoldError(`--version "${version}": must be a Kubernetes version (v1, v1alpha1, v2beta3…)`, 2);
  if (!KIND.test(kind)) throw new ScaffoldError(`--kind "${kind}": must be an UpperCamelCase name of letters and digits (e.g. Widget)`, 2);
  const clientName = groupClientName(group);
  const plural = pluralize(kind.toLowerCase());
  return {
    group,
    groupDir: `apis/${group.split('.')[0]!}`,
    version,
    kind,
    plural,
    singular: kind.toLowerCase(),
    clientName,
    versionAccessor: groupVersionAccessor(clientName, version),
    resourceAccessor: lowerFirst(plural),
  };
}

/** An npm package name from a directory name (`My Project` → `my-project`). */
export function moduleName(name: string): string {
  const cleaned = name
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[-._]+|[-._]+$/g, '');
  if (cleaned === '') throw new ScaffoldError(`cannot make an npm package name of "${name}": pass --module NAME`, 2);
  return cleaned.slice(0, 214);
}
