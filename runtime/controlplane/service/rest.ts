import { allocateCreate, allocateUpdate, releaseService } from '../../../apis/core/v1/service-allocation.js';
import { clusterIPsOf } from '../../../apis/core/v1/service-ips.js';
import { nodePortsOf } from '../../../apis/core/v1/service-nodeports.js';
import type { AllocationTransaction, NetworkAllocators } from '../../registry/allocator/types.js';
import type { Service } from '../../../apis/core/v1/types.js';
import { isNotFound } from '../../apimachinery/errors/index.js';
import type { KubeObject, RequestContext, ResourceStorage, StandardStorage, UpdatedObjectInfo } from '../../registry/rest.js';
import { LIST_EVERYTHING } from '../../registry/resources.js';
import { deepCopyJSON } from '../../apimachinery/serializer/jsonvalue.js';

/**
 * Service storage (pkg/registry/core/service/storage): the generic store, with cluster IPs and
 * node ports allocated before a create or update is prepared and validated (kube's BeginCreate and
 * BeginUpdate), given back when the write fails, and released when a Service is deleted or
 * stops needing them. IPs leaked by writes that never finished (a crash between allocation and
 * store) are reclaimed by `repair`.
 */
export class ServiceStorage {
  readonly storages: ResourceStorage;

  constructor(
    generic: ResourceStorage,
    private readonly allocators: NetworkAllocators,
  ) {
    const main = generic.main;
    this.main = main;
    this.storages = {
      ...generic,
      main: {
        get: (...a) => main.get(...a),
        list: (...a) => main.list(...a),
        watch: (...a) => main.watch(...a),
        create: (ctx, obj, validate, opts) => this.create(ctx, obj, validate, opts),
        update: (ctx, name, objInfo, validate, opts) => this.update(ctx, name, objInfo, validate, opts),
        delete: (ctx, name, validate, opts) => this.delete(ctx, name, validate, opts),
        deleteCollection: (ctx, validate, opts, listOpts) => this.deleteCollection(ctx, validate, opts, listOpts),
      },
    };
  }

  private readonly main: StandardStorage;

  private async create(...[ctx, obj, validate, opts]: Parameters<StandardStorage['create']>): Promise<KubeObject> {
    const svc = deepCopyJSON(obj) as Service;
    const txn = await allocateCreate(svc, this.allocators, opts.dryRun);
    return finish(txn, () => this.main.create(ctx, svc as KubeObject, validate, opts));
  }

  private async update(...[ctx, name, objInfo, validate, opts]: Parameters<StandardStorage['update']>): Promise<{ object: KubeObject; created: boolean }> {
    // The store may compute the object more than once (conflict retries): each round gives
    // back what the round before took.
    let txn: AllocationTransaction | undefined;
    const allocating: UpdatedObjectInfo = {
      preconditions: () => objInfo.preconditions(),
      updatedObject: async (c, old) => {
        await txn?.revert();
        txn = undefined;
        const svc = deepCopyJSON(await objInfo.updatedObject(c, old)) as Service;
        txn = old === undefined ? await allocateCreate(svc, this.allocators, opts.dryRun) : await allocateUpdate(svc, old as Service, this.allocators, opts.dryRun);
        return svc as KubeObject;
      },
    };
    try {
      const out = await this.main.update(ctx, name, allocating, validate, opts);
      await txn?.commit();
      return out;
    } catch (err) {
      await txn?.revert();
      throw err;
    }
  }

  private async delete(...[ctx, name, validate, opts]: Parameters<StandardStorage['delete']>): Promise<{ object: KubeObject; deleted: boolean }> {
    const out = await this.main.delete(ctx, name, validate, opts);
    if (out.deleted && !opts.dryRun) await releaseService(out.object as Service, this.allocators);
    return out;
  }

  /** The generic deleteCollection deletes through the store itself: release what is gone afterwards. */
  private async deleteCollection(...[ctx, validate, opts, listOpts]: Parameters<StandardStorage['deleteCollection']>) {
    const out = await this.main.deleteCollection(ctx, validate, opts, listOpts);
    if (opts.dryRun) return out;
    for (const item of out.items) {
      const name = String(item.metadata?.name ?? '');
      const itemCtx: RequestContext = { ...ctx, namespace: String(item.metadata?.namespace ?? ctx.namespace) };
      const gone = await this.main.get(itemCtx, name, { resourceVersion: '' }).then(
        (now) => now.metadata?.uid !== item.metadata?.uid,
        (err: unknown) => isNotFound(err),
      );
      if (gone) await releaseService(item as Service, this.allocators);
    }
    return out;
  }

  /** Every cluster IP and node port the stored Services hold. */
  async inUse(ctx: RequestContext): Promise<{ ips: string[]; ports: number[] }> {
    const services = (await this.main.list(ctx, LIST_EVERYTHING)).items as Service[];
    return { ips: services.flatMap(clusterIPsOf), ports: services.flatMap(nodePortsOf) };
  }
}

/** Runs the write, then commits the allocation, or reverts it when the write failed. */
async function finish<T>(txn: AllocationTransaction, write: () => Promise<T>): Promise<T> {
  let out: T;
  try {
    out = await write();
  } catch (err) {
    await txn.revert();
    throw err;
  }
  await txn.commit();
  return out;
}
