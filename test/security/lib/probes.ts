// One column of the security matrix: a request made with kubectl, the question `kubectl auth
// can-i` asks about it, and the line kubectl prints when the server refuses it, in kube's words
// (the authorization filter's Forbidden Status as kubectl's error printer shows it).

/** A resource a probe names: its group ("" for core), plural, optional subresource, namespace and name. */
export interface Target {
  readonly group: string;
  readonly resource: string;
  readonly subresource?: string;
  readonly namespace?: string;
  readonly name?: string;
}

export interface Probe {
  /** The column label, e.g. "list services -n a". */
  readonly label: string;
  /** kubectl's arguments for the request (after the user's flags). */
  readonly args: readonly string[];
  readonly stdin?: string;
  /** kubectl's arguments for `auth can-i`. */
  readonly canI: readonly string[];
  /** The same question as a SubjectAccessReview's attributes (`resourceAttributes` or `nonResourceAttributes`). */
  readonly review: Readonly<Record<string, object>>;
  /** The refusal kubectl prints for `user`. */
  forbidden(user: string): string;
}

/** kubectl's name for a resource on its command line: plural, qualified by its group unless core. */
function qualified(t: Target): string {
  return t.group === '' ? t.resource : `${t.resource}.${t.group}`;
}

function namespaceArgs(t: Target): string[] {
  return t.namespace === undefined ? [] : ['-n', t.namespace];
}

/**
 * kube's wording (apiserver/pkg/endpoints/handlers/responsewriters.forbiddenMessage inside
 * errors.NewForbidden): `<group resource> ["<name>"] is forbidden: User "<u>" cannot <verb>
 * resource "<resource>[/<subresource>]" in API group "<g>" (in the namespace "<ns>" | at the cluster scope)`.
 */
export function resourceForbidden(user: string, verb: string, t: Target): string {
  const what = t.name === undefined ? qualified(t) : `${qualified(t)} "${t.name}"`;
  const resource = t.subresource === undefined ? t.resource : `${t.resource}/${t.subresource}`;
  const scope = t.namespace === undefined ? 'at the cluster scope' : `in the namespace "${t.namespace}"`;
  return `${what} is forbidden: User "${user}" cannot ${verb} resource "${resource}" in API group "${t.group}" ${scope}`;
}

/** A SubjectAccessReview's resourceAttributes for `verb` on `t` (what `auth can-i` sends in a SelfSubjectAccessReview). */
function resourceAttributes(verb: string, t: Target): Record<string, object> {
  const { group, resource, subresource, namespace, name } = t;
  return {
    resourceAttributes: { verb, group, resource, ...(subresource === undefined ? {} : { subresource }), ...(namespace === undefined ? {} : { namespace }), ...(name === undefined ? {} : { name }) },
  };
}

const fromServer = (message: string): string => `Error from server (Forbidden): ${message}`;

/** `kubectl get <resource> [-n ns]` (a list) or `get <resource> <name>`. */
export function get(t: Target): Probe {
  const verb = t.name === undefined ? 'list' : 'get';
  const named = t.name === undefined ? [qualified(t)] : [qualified(t), t.name];
  return {
    label: `${verb} ${named.join(' ')}${t.namespace === undefined ? '' : ` -n ${t.namespace}`}`,
    args: ['get', ...named, ...namespaceArgs(t)],
    canI: ['auth', 'can-i', verb, t.name === undefined ? qualified(t) : `${qualified(t)}/${t.name}`, ...namespaceArgs(t)],
    review: resourceAttributes(verb, t),
    forbidden: (user) => fromServer(resourceForbidden(user, verb, t)),
  };
}

/** A watch through `get --raw` ending after a second (the server closes it): no kubectl left running. */
export function watch(t: Target & { readonly namespace: string }): Probe {
  const base = t.group === '' ? '/api/v1' : `/apis/${t.group}`;
  return {
    label: `watch ${qualified(t)} -n ${t.namespace}`,
    args: ['get', '--raw', `${base}/namespaces/${t.namespace}/${t.resource}?watch=1&timeoutSeconds=1`],
    canI: ['auth', 'can-i', 'watch', qualified(t), '-n', t.namespace],
    review: resourceAttributes('watch', t),
    forbidden: (user) => fromServer(resourceForbidden(user, 'watch', t)),
  };
}

/** `kubectl create -f - --dry-run=server`: authorized as a create, nothing stored. */
export function create(t: Target & { readonly namespace: string }, manifest: object): Probe {
  return {
    label: `create ${qualified(t)} -n ${t.namespace}`,
    args: ['create', '-f', '-', '--dry-run=server'],
    stdin: JSON.stringify(manifest),
    canI: ['auth', 'can-i', 'create', qualified(t), '-n', t.namespace],
    review: resourceAttributes('create', t),
    forbidden: (user) => fromServer(`error when creating "STDIN": ${resourceForbidden(user, 'create', t)}`),
  };
}

/** `kubectl delete <resource> <name> --dry-run=server`. */
export function remove(t: Target & { readonly name: string }): Probe {
  return {
    label: `delete ${qualified(t)} ${t.name}${t.namespace === undefined ? '' : ` -n ${t.namespace}`}`,
    args: ['delete', qualified(t), t.name, ...namespaceArgs(t), '--dry-run=server'],
    canI: ['auth', 'can-i', 'delete', `${qualified(t)}/${t.name}`, ...namespaceArgs(t)],
    review: resourceAttributes('delete', t),
    forbidden: (user) => fromServer(resourceForbidden(user, 'delete', t)),
  };
}

/**
 * `kubectl patch --subresource=<sub>` with an empty merge patch: kubectl reads the subresource
 * first, so a user without the subresource is refused at that get.
 */
export function patchSubresource(t: Target & { readonly name: string; readonly subresource: string }): Probe {
  return {
    label: `patch ${qualified(t)}/${t.subresource} ${t.name}${t.namespace === undefined ? '' : ` -n ${t.namespace}`}`,
    args: ['patch', qualified(t), t.name, ...namespaceArgs(t), `--subresource=${t.subresource}`, '--type=merge', '-p', '{}', '--dry-run=server'],
    canI: ['auth', 'can-i', 'patch', `${qualified(t)}/${t.name}`, `--subresource=${t.subresource}`, ...namespaceArgs(t)],
    review: resourceAttributes('patch', t),
    forbidden: (user) => fromServer(resourceForbidden(user, 'get', t)),
  };
}

/** `kubectl get --raw <path>` of a non-resource URL; kube: `forbidden: User "<u>" cannot get path "<path>"`. */
export function path(p: string): Probe {
  return {
    label: `get ${p}`,
    args: ['get', '--raw', p],
    canI: ['auth', 'can-i', 'get', p],
    review: { nonResourceAttributes: { verb: 'get', path: p } },
    forbidden: (user) => fromServer(`forbidden: User "${user}" cannot get path "${p}"`),
  };
}
