import { isDeepStrictEqual } from 'node:util';
import type { CustomResourceDefinitionCondition, CustomResourceDefinitionNames } from '../../../apis/apiextensions/v1/types.js';
import { isConflict, isNotFound } from '../../apimachinery/errors/index.js';
import { RateLimitingQueue, runController, type DeepReadonly } from '../../client/index.js';
import { conditionEquivalent, crdKey, ESTABLISHED, findCondition, mutableCopy, NAMES_ACCEPTED, setCondition } from './conditions.js';
import { deletedCRD, getCRD, onErrorOf, type CachedCRD, type CRDControllerDeps } from './deps.js';
import { MutationCache } from './mutation-cache.js';

/** Names a group already uses outside CRDs (its built-in resources), which no CRD may take. */
export interface ReservedNames {
  /** Plurals, singulars and short names. */
  readonly resources: ReadonlySet<string>;
  /** Kinds and list kinds. */
  readonly kinds: ReadonlySet<string>;
}

export interface NamingControllerOptions extends CRDControllerDeps {
  /** The built-in names of a group; default none. */
  readonly reservedNames?: (group: string) => ReservedNames | undefined;
}

type Names = CustomResourceDefinitionNames;

/**
 * The naming condition controller (apiextensions' status.NamingConditionController): accepts
 * the names a CRD asks for (status.acceptedNames) unless another CRD of its group, or a built-in
 * resource of the group, already holds them, and says so in NamesAccepted (True/NoConflicts or
 * False with PluralConflict, SingularConflict, ShortNamesConflict, KindConflict,
 * ListKindConflict). Names once accepted stay a CRD's until it asks for others, so a conflicting
 * newcomer waits; when a CRD goes or gives names up, the rest of its group is reconsidered.
 * Accepted names set Established to False/Installing, for the establishing controller to finish.
 *
 * One worker only: reserving names is not safe to run concurrently.
 */
export class NamingController {
  private readonly queue = new RateLimitingQueue<string>();
  private readonly written = new MutationCache();

  constructor(private readonly o: NamingControllerOptions) {
    o.informer.informer().addEventHandler({
      onAdd: (crd) => this.queue.add(crdKey(crd)),
      onUpdate: (_old, crd) => this.queue.add(crdKey(crd)),
      onDelete: (crd) => this.queue.add(crdKey(deletedCRD(crd))),
    });
  }

  /** Reconciles until `signal` aborts; the informer must have synced. */
  run(signal: AbortSignal): Promise<void> {
    return runController({ queue: this.queue, signal, reconcile: (key, s) => this.sync(key, s), onError: onErrorOf(this.o, 'NamingConditionController') });
  }

  private async sync(name: string, signal: AbortSignal): Promise<void> {
    const crd = getCRD(this.o, name);
    if (crd === undefined) {
      // Its names are free now: whoever waited for them may take them.
      this.requeueGroup(name);
      return;
    }
    if (namesEqual(crd.spec.names, crd.status?.acceptedNames)) return;
    const { accepted, namesAccepted, established } = this.calculate(crd);
    if (isDeepStrictEqual(normalized(crd.status?.acceptedNames), normalized(accepted)) && conditionEquivalent(namesAccepted, findCondition(crd, NAMES_ACCEPTED))) return;

    const now = this.now();
    const copy = mutableCopy(crd);
    (copy.status ??= {}).acceptedNames = accepted;
    setCondition(copy, namesAccepted, now);
    setCondition(copy, established, now);
    try {
      this.written.mutation(await this.o.crds.updateStatus(copy, { signal }));
    } catch (err) {
      // Deleted or changed meanwhile: the informer brings it back.
      if (isNotFound(err) || isConflict(err)) return;
      throw err;
    }
    // Names given up by this write are free for the others.
    this.requeueGroup(name);
  }

  private calculate(crd: CachedCRD): { accepted: Names; namesAccepted: CustomResourceDefinitionCondition; established: CustomResourceDefinitionCondition } {
    const { resources, kinds } = this.namesInUse(crd.spec.group);
    const requested = crd.spec.names;
    const current = crd.status?.acceptedNames;
    const accepted: Names = structuredClone(current ?? { plural: '', kind: '' }) as Names;
    let conflict: { reason: string; message: string } | undefined;

    const plural = freshOrOwn(requested.plural, current?.plural, resources);
    if (plural === undefined) accepted.plural = requested.plural;
    else conflict = { reason: 'PluralConflict', message: plural };
    const singular = freshOrOwn(requested.singular, current?.singular, resources);
    if (singular === undefined) assign(accepted, 'singular', requested.singular);
    else conflict = { reason: 'SingularConflict', message: singular };
    if (!sameList(requested.shortNames, current?.shortNames)) {
      const own = new Set(current?.shortNames ?? []);
      const taken: string[] = [];
      for (const s of requested.shortNames ?? []) {
        // Our own plural and singular are in `resources` too: not a conflict with ourselves.
        if (own.has(s) || s === current?.plural || s === current?.singular) continue;
        const err = freshOrOwn(s, undefined, resources);
        if (err !== undefined) taken.push(err);
      }
      if (taken.length === 0) assign(accepted, 'shortNames', requested.shortNames === undefined ? undefined : [...requested.shortNames]);
      else conflict = { reason: 'ShortNamesConflict', message: taken.length === 1 ? taken[0]! : `[${taken.join(', ')}]` };
    }
    const kind = freshOrOwn(requested.kind, current?.kind, kinds);
    if (kind === undefined) accepted.kind = requested.kind;
    else conflict = { reason: 'KindConflict', message: kind };
    const listKind = freshOrOwn(requested.listKind, current?.listKind, kinds);
    if (listKind === undefined) assign(accepted, 'listKind', requested.listKind);
    else conflict = { reason: 'ListKindConflict', message: listKind };
    assign(accepted, 'categories', requested.categories === undefined ? undefined : [...requested.categories]);

    const namesAccepted: CustomResourceDefinitionCondition =
      conflict === undefined ? { type: NAMES_ACCEPTED, status: 'True', reason: 'NoConflicts', message: 'no conflicts found' } : { type: NAMES_ACCEPTED, status: 'False', ...conflict };
    // Established turns True only in the establishing controller, once the handler serves the names.
    const old = findCondition(crd, ESTABLISHED);
    let established: CustomResourceDefinitionCondition =
      old !== undefined ? (structuredClone(old) as CustomResourceDefinitionCondition) : { type: ESTABLISHED, status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' };
    if (established.status !== 'True' && namesAccepted.status === 'True') {
      established = { type: ESTABLISHED, status: 'False', reason: 'Installing', message: 'the initial names have been accepted' };
    }
    return { accepted, namesAccepted, established };
  }

  /** Every name the group's CRDs have accepted (this one's included), and the group's built-in names. */
  private namesInUse(group: string): { resources: Set<string>; kinds: Set<string> } {
    const reserved = this.o.reservedNames?.(group);
    const resources = new Set<string>(reserved?.resources ?? []);
    const kinds = new Set<string>(reserved?.kinds ?? []);
    for (const cached of this.o.informer.lister().list()) {
      if (cached.spec.group !== group) continue;
      const names = this.written.newest(cached).status?.acceptedNames;
      if (names === undefined) continue;
      for (const n of [names.plural, names.singular, ...(names.shortNames ?? [])]) if (n) resources.add(n);
      for (const n of [names.kind, names.listKind]) if (n) kinds.add(n);
    }
    return { resources, kinds };
  }

  private requeueGroup(name: string): void {
    const dot = name.indexOf('.');
    const group = dot < 0 ? '' : name.slice(dot + 1);
    for (const crd of this.o.informer.lister().list()) {
      if (crd.spec.group === group && crdKey(crd) !== name) this.queue.add(crdKey(crd));
    }
  }

  private now(): Date {
    return this.o.now?.() ?? new Date();
  }
}

/**
 * undefined when `requested` may be accepted (it is already ours, or nobody uses it), else
 * kube's message: `"widgets" is already in use`. An absent name is the empty string, as in Go.
 */
function freshOrOwn(requested: string | undefined, accepted: string | undefined, used: ReadonlySet<string>): string | undefined {
  const r = requested ?? '';
  if (r === (accepted ?? '') || !used.has(r)) return undefined;
  return `${JSON.stringify(r)} is already in use`;
}

/** Sets an optional field, leaving it out when absent (as omitempty would). */
function assign<K extends keyof Names>(names: Names, key: K, value: Names[K] | undefined): void {
  if (value === undefined) delete names[key];
  else names[key] = value;
}

function sameList(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  return isDeepStrictEqual(a ?? [], b ?? []);
}

/** Names compared as Go's semantic equality does: absent and empty are equal. */
function normalized(n: DeepReadonly<Names> | undefined): Record<string, unknown> {
  return {
    plural: n?.plural ?? '',
    singular: n?.singular ?? '',
    kind: n?.kind ?? '',
    listKind: n?.listKind ?? '',
    shortNames: [...(n?.shortNames ?? [])],
    categories: [...(n?.categories ?? [])],
  };
}

function namesEqual(a: DeepReadonly<Names> | undefined, b: DeepReadonly<Names> | undefined): boolean {
  return isDeepStrictEqual(normalized(a), normalized(b));
}
