import { isDeepStrictEqual } from 'node:util';
import type { CustomResourceDefinition } from '../../apis/apiextensions/v1/types.js';
import type { AdmissionChain } from '../admission/types.js';
import type { SchemaValidator } from '../apimachinery/validation/schema-validator.js';
import { KindScheme } from '../apimachinery/scheme/scheme.js';
import { installAPIGroupVersion } from '../endpoints/installer.js';
import { createResourceStorage } from '../registry/generic/index.js';
import type { ResourceStorage } from '../registry/rest.js';
import type { APIGroupDefinition } from '../registry/types.js';
import type { Cancellation } from '../apimachinery/request/cancellation.js';
import type { APIRequest, APIResponse, Handler } from '../apimachinery/request/http.js';
import type { Interface as StorageInterface } from '../storage/index.js';
import { customResourceCodec, customResourceObjectConvertor } from './codec.js';
import { noneConverter, type CRConverter } from './conversion/converter.js';
import type { ServiceResolver } from './conversion/service-resolver.js';
import { webhookConverter } from './conversion/webhook.js';
import { crdGroupDefinition, servedVersionNames, storeGroupFor } from './definition.js';

/** The call site runtime.NewScheme names the CRD handler's parameter scheme after (v0.32.9), as its errors print it. */
const CUSTOM_RESOURCE_PARAMETER_SCHEME = 'pkg/apiserver/customresource_handler.go:725';

/** What building the serving state of a CRD needs besides the CRD and its storage. */
export interface ServingDeps {
  readonly admission: AdmissionChain;
  /** Shared by every CRD: ajv compiles each schema object once. */
  readonly validator: SchemaValidator;
  readonly minRequestTimeoutSeconds: number;
  readonly serviceResolver: ServiceResolver | undefined;
  readonly webhookTimeoutMs: number | undefined;
}

/**
 * Everything that serves one CRD as it is now (kube's crdInfo): its group definition, the REST
 * storages over the CRD's storage.Interface, one handler per served version, the converter;
 * and the requests in flight, so a replaced CRD is torn down only once they are done (watches,
 * which would last forever, are ended instead, as kube's storage teardown ends them).
 */
export class CRDServingInfo {
  readonly uid: string;
  readonly group: APIGroupDefinition;
  readonly storages: ResourceStorage;
  private crd: CustomResourceDefinition;
  private readonly handlers: ReadonlyMap<string, Handler>;
  private inFlight = 0;
  private drained: Array<() => void> = [];
  private readonly watches = new Set<Cancellation>();

  private constructor(
    crd: CustomResourceDefinition,
    group: APIGroupDefinition,
    storages: ResourceStorage,
    handlers: ReadonlyMap<string, Handler>,
    private readonly converter: CRConverter,
  ) {
    this.uid = crd.metadata?.uid ?? '';
    this.crd = crd;
    this.group = group;
    this.storages = storages;
    this.handlers = handlers;
  }

  /** Builds the serving state of `crd` over its storage (shared by every serving state of the same CRD uid). */
  static build(crd: CustomResourceDefinition, storage: StorageInterface, deps: ServingDeps): CRDServingInfo {
    const group = crdGroupDefinition(crd);
    const storageResource = group.versions.find((v) => v.name === group.storageVersion)?.resources[0];
    if (storageResource === undefined) throw new Error(`no storage version in ${crd.metadata?.name ?? ''}`);
    const kind = storageResource.kind;
    const converter = converterFor(crd, deps);
    const scheme = new KindScheme(group, kind);
    const objectConvertor = customResourceObjectConvertor(scheme, converter);
    const codecs = new Map(servedVersionNames(crd).map((v) => [v, customResourceCodec(scheme, v, converter)] as const));
    // Each version its own stores (its status and scale subresources, its strategy); its strategy
    // validates, and its /scale reads the replicas of, objects converted to it.
    const storagesOf = (version: string): ResourceStorage => {
      const versionView = codecs.get(version);
      return createResourceStorage({
        group: storeGroupFor(group, version),
        kind,
        storage,
        ...(versionView !== undefined ? { versionView } : {}),
        validateScale: false,
      });
    };
    // The storage version's storages are the CRD's (what the finalizer and the garbage collector use).
    const storages = storagesOf(group.storageVersion);
    const handlers = new Map<string, Handler>();
    try {
      for (const version of servedVersionNames(crd)) {
        const installed = installAPIGroupVersion({
          group,
          version,
          storages: new Map([[kind, version === group.storageVersion ? storages : storagesOf(version)]]),
          validationRatcheting: true,
          admission: deps.admission,
          strategicMergePatch: false,
          scaleTableFromResource: true,
          // The CRD handler's scale scope keeps the resource's typer, the parameter scheme its
          // crdHandler makes per version (customresource_handler.go, 1.32), which has no Scale.
          scaleTyperScheme: CUSTOM_RESOURCE_PARAMETER_SCHEME,
          unknownSubresource: 'object',
          unstructured: true,
          minRequestTimeoutSeconds: deps.minRequestTimeoutSeconds,
          validator: deps.validator,
          codec: (_scheme, v) => codecs.get(v) ?? customResourceCodec(scheme, v, converter),
          // kube's CRD handler: NewDefaultCRDFieldManager over the CRD's schemas and its converter.
          fieldManagers: {
            customResource: { preserveUnknownFields: crd.spec?.preserveUnknownFields === true },
            objectConvertor: () => objectConvertor,
          },
        });
        handlers.set(version, installed.handler);
      }
    } catch (err) {
      converter.close();
      throw err;
    }
    return new CRDServingInfo(crd, group, storages, handlers, converter);
  }

  /**
   * Whether this state still serves `crd`: same uid, and the same spec and accepted names (what
   * the serving state is built from); status changes alone keep it. Cheap for the CRD object
   * it was last checked against.
   */
  serves(crd: CustomResourceDefinition): boolean {
    if (crd === this.crd) return true;
    const same =
      (crd.metadata?.uid ?? '') === this.uid &&
      ((crd.metadata?.resourceVersion !== undefined && crd.metadata.resourceVersion === this.crd.metadata?.resourceVersion) ||
        (isDeepStrictEqual(crd.spec, this.crd.spec) && isDeepStrictEqual(crd.status?.acceptedNames, this.crd.status?.acceptedNames)));
    if (same) this.crd = crd;
    return same;
  }

  /** The handler of a served version, undefined for others. */
  handlerFor(version: string): Handler | undefined {
    return this.handlers.get(version);
  }

  /** Runs `handler` counted as in flight (watches are remembered to be ended on teardown). */
  async serve(req: APIRequest, res: APIResponse, handler: Handler): Promise<void> {
    if (req.info.verb === 'watch') {
      this.watches.add(req.cancellation);
      try {
        await handler(req, res);
      } finally {
        this.watches.delete(req.cancellation);
      }
      return;
    }
    this.inFlight++;
    try {
      await handler(req, res);
    } finally {
      if (--this.inFlight === 0) for (const wake of this.drained.splice(0)) wake();
    }
  }

  /**
   * Waits for the requests in flight (at most `timeoutMs`), then ends the watches and releases
   * the converter's connections. The storage is not touched: it outlives serving states.
   */
  async tearDown(timeoutMs: number): Promise<void> {
    if (this.inFlight > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        timer.unref();
        this.drained.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    for (const c of [...this.watches]) c.abort(new Error('the custom resource definition changed'));
    this.converter.close();
  }
}

function converterFor(crd: CustomResourceDefinition, deps: ServingDeps): CRConverter {
  const conversion = crd.spec.conversion;
  if (conversion === undefined || conversion.strategy === 'None') return noneConverter(crd.spec.group);
  if (conversion.strategy === 'Webhook' && conversion.webhook !== undefined) {
    return webhookConverter({
      group: crd.spec.group,
      webhook: conversion.webhook,
      ...(deps.serviceResolver !== undefined ? { serviceResolver: deps.serviceResolver } : {}),
      ...(deps.webhookTimeoutMs !== undefined ? { timeoutMs: deps.webhookTimeoutMs } : {}),
    });
  }
  throw new Error(`unknown conversion strategy ${JSON.stringify(conversion.strategy)} for CRD ${crd.metadata?.name ?? ''}`);
}
