import type { CustomResourceDefinition } from '../../../apis/apiextensions/v1/types.js';
import type { OpenAPIV3Document } from '../../server/openapi/index.js';
import { ESTABLISHED, isConditionTrue } from './conditions.js';
import type { CRDControllerDeps } from './deps.js';
import { GroupVersionController } from './groupversion.js';
import { crdGroupVersionOpenAPI, crdSwaggerV2Schemas } from './openapi-builder.js';

/** Where group-version documents are published (OpenAPIService: /openapi/v3 and the merged /openapi/v2). */
export interface OpenAPIRegistry {
  /** `swaggerV2Schemas`: definitions that /openapi/v2 publishes instead of the document's own. */
  setGroupVersion(group: string, version: string, document: OpenAPIV3Document, swaggerV2Schemas?: ReadonlyMap<string, unknown>): void;
  removeGroupVersion(group: string, version: string): void;
}

export interface OpenAPIControllerOptions extends CRDControllerDeps {
  readonly openapi: OpenAPIRegistry;
  /**
   * Group versions whose document belongs to a built-in group: a CRD there never replaces it.
   * Default none.
   */
  readonly isBuiltinGroupVersion?: (group: string, version: string) => boolean;
}

/**
 * The CRD OpenAPI controller (apiextensions' openapiv3 controller; /openapi/v2 is derived from
 * the same documents, with each kind's schema as kube's v2 builder cuts it): one document per group version, merged from every Established CRD
 * serving it, replaced whenever one of them changes and removed with the last of them.
 */
export class OpenAPIController {
  private readonly loop: GroupVersionController;

  constructor(private readonly o: OpenAPIControllerOptions) {
    this.loop = new GroupVersionController(o, 'OpenAPIController', (group, version) => this.sync(group, version));
  }

  /** Publishes every group version the synced informer knows, then reconciles changes until `signal` aborts. */
  run(signal: AbortSignal, synced?: () => void): Promise<void> {
    return this.loop.run(signal, synced);
  }

  private sync(group: string, version: string): void {
    if (this.o.isBuiltinGroupVersion?.(group, version) === true) return;
    const crds = this.o.informer
      .lister()
      .list()
      .filter((c) => c.spec.group === group && isConditionTrue(c, ESTABLISHED)) as CustomResourceDefinition[];
    const document = crdGroupVersionOpenAPI(group, version, crds);
    if (document === undefined) this.o.openapi.removeGroupVersion(group, version);
    else this.o.openapi.setGroupVersion(group, version, document, crdSwaggerV2Schemas(group, version, crds));
  }
}
