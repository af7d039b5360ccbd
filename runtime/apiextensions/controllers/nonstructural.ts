import type { CustomResourceDefinition, CustomResourceDefinitionCondition } from '../../../apis/apiextensions/v1/types.js';
import { isConflict, isNotFound } from '../../apimachinery/errors/index.js';
import { formatFieldError, type FieldError } from '../../apimachinery/validation/field.js';
import { RateLimitingQueue, runController } from '../../client/index.js';
import { validateStructural } from '../validation/structural.js';
import { conditionEquivalent, crdKey, findCondition, mutableCopy, NON_STRUCTURAL_SCHEMA, removeCondition, setCondition } from './conditions.js';
import { deletedCRD, getCRD, onErrorOf, type CRDControllerDeps } from './deps.js';

/**
 * The non-structural schema condition controller (apiextensions' nonstructuralschema
 * controller): NonStructuralSchema=True/Violations, listing what makes a version's schema not
 * structural, on CRDs that have such a schema (v1 validation refuses them on create, so only
 * CRDs stored before, or imported, get here); the condition goes once every schema is
 * structural. Each generation is looked at once.
 */
export class NonStructuralSchemaController {
  private readonly queue = new RateLimitingQueue<string>();
  private readonly lastSeenGeneration = new Map<string, number>();

  constructor(private readonly o: CRDControllerDeps) {
    o.informer.informer().addEventHandler({
      onAdd: (crd) => this.queue.add(crdKey(crd)),
      onUpdate: (_old, crd) => this.queue.add(crdKey(crd)),
      onDelete: (crd) => {
        this.lastSeenGeneration.delete(crdKey(deletedCRD(crd)));
      },
    });
  }

  /** Reconciles until `signal` aborts; the informer must have synced. */
  run(signal: AbortSignal): Promise<void> {
    return runController({ queue: this.queue, signal, reconcile: (key, s) => this.sync(key, s), onError: onErrorOf(this.o, 'NonStructuralSchemaConditionController') });
  }

  private async sync(name: string, signal: AbortSignal): Promise<void> {
    const crd = getCRD(this.o, name);
    if (crd === undefined) return;
    const generation = crd.metadata?.generation ?? 0;
    const seen = this.lastSeenGeneration.get(name);
    if (seen !== undefined && generation <= seen) return;

    const wanted = nonStructuralCondition(crd as CustomResourceDefinition);
    const current = findCondition(crd, NON_STRUCTURAL_SCHEMA);
    if (wanted === undefined && current === undefined) return;
    if (wanted !== undefined && conditionEquivalent(wanted, current)) return;
    const copy = mutableCopy(crd);
    if (wanted === undefined) removeCondition(copy, NON_STRUCTURAL_SCHEMA);
    else setCondition(copy, wanted, this.o.now?.() ?? new Date());
    let updated: CustomResourceDefinition;
    try {
      updated = await this.o.crds.updateStatus(copy, { signal });
    } catch (err) {
      if (isNotFound(err) || isConflict(err)) return;
      throw err;
    }
    this.lastSeenGeneration.set(name, updated.metadata?.generation ?? generation);
  }
}

/** The condition a CRD's schemas call for, or undefined when all are structural (or absent). */
export function nonStructuralCondition(crd: CustomResourceDefinition): CustomResourceDefinitionCondition | undefined {
  const errors: FieldError[] = [];
  crd.spec.versions.forEach((v, i) => {
    const schema = v.schema?.openAPIV3Schema;
    if (schema !== undefined) errors.push(...validateStructural(schema, `spec.versions[${i}].schema.openAPIV3Schema`));
  });
  if (errors.length === 0) return undefined;
  const texts = errors.map(formatFieldError);
  return { type: NON_STRUCTURAL_SCHEMA, status: 'True', reason: 'Violations', message: texts.length === 1 ? texts[0]! : `[${texts.join(', ')}]` };
}
