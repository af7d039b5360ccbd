// The model of acknowledged writes: every object as the server last acknowledged it (the body of
// the last 2xx write, or of the listing taken before the fuzz). After the fuzz, a list of each
// kind must equal it exactly: a write answered 2xx but not stored, a write stored but answered
// with an error, or a dry run that was persisted all show up as a difference.
import { isDeepStrictEqual } from 'node:util';
import type { Obj, Target } from './targets.js';

interface Meta {
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  deletionTimestamp?: string;
  finalizers?: string[];
}

const meta = (o: Obj): Meta => (o['metadata'] ?? {}) as Meta;

export class Model {
  private readonly objects = new Map<string, { target: Target['id']; obj: Obj }>();

  static key(target: Target['id'], ns: string, name: string): string {
    return `${target}/${ns}/${name}`;
  }

  static keyOf(target: Target, o: Obj): string {
    return Model.key(target.id, target.namespaced ? (meta(o).namespace ?? '') : '', meta(o).name ?? '');
  }

  get(key: string): Obj | undefined {
    return this.objects.get(key)?.obj;
  }

  /** Records an object as the server acknowledged it (created, updated, patched, or listed). */
  set(target: Target, o: Obj): void {
    this.objects.set(Model.keyOf(target, o), { target: target.id, obj: o });
  }

  /**
   * Records an acknowledged delete: the object is gone, or (finalizers) still there with a
   * deletionTimestamp, as the answer says.
   */
  deleted(target: Target, o: Obj): void {
    if (o['kind'] !== 'Status' && meta(o).deletionTimestamp !== undefined) this.set(target, o);
    else this.objects.delete(Model.keyOf(target, o));
  }

  /** Records an acknowledged delete answered with a Status: the object is gone. */
  remove(key: string): void {
    this.objects.delete(key);
  }

  /** Objects of one kind in one namespace ('' for a cluster-scoped kind). */
  objectsOf(target: Target, ns: string): Map<string, Obj> {
    const out = new Map<string, Obj>();
    for (const [k, v] of this.objects) if (v.target === target.id && k.startsWith(`${target.id}/${ns}/`)) out.set(k, v.obj);
    return out;
  }

  /**
   * Differences between a listing and the model, one line each (empty: equal). A Namespace whose
   * delete was acknowledged must be gone once its controller has finalized it (callers poll).
   */
  diff(target: Target, ns: string, items: readonly Obj[]): string[] {
    const want = this.objectsOf(target, ns);
    const out: string[] = [];
    const seen = new Set<string>();
    for (const item of items) {
      const key = Model.keyOf(target, item);
      seen.add(key);
      const expected = want.get(key);
      if (!expected) {
        out.push(`${key}: listed (rv ${meta(item).resourceVersion}) but no write creating it was acknowledged`);
        continue;
      }
      if (meta(expected).deletionTimestamp !== undefined && target.id === 'namespace') {
        out.push(`${key}: deleted (acknowledged) but its controller has not removed it yet`);
        continue;
      }
      const strip = (o: Obj): Obj => Object.fromEntries(Object.entries(o).filter(([k]) => k !== 'apiVersion' && k !== 'kind'));
      if (!isDeepStrictEqual(strip(item), strip(expected))) out.push(`${key}: listed ${JSON.stringify(strip(item)).slice(0, 600)}\n    acknowledged ${JSON.stringify(strip(expected)).slice(0, 600)}`);
    }
    for (const [key, o] of want) {
      if (seen.has(key)) continue;
      if (meta(o).deletionTimestamp !== undefined && target.id === 'namespace') continue;
      out.push(`${key}: acknowledged (rv ${meta(o).resourceVersion}) but not listed`);
    }
    return out;
  }
}
