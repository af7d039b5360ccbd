import type { CustomResourceDefinition } from '../../../apis/apiextensions/v1/types.js';
import type { FieldError } from '../../apimachinery/validation/field.js';
import { isDNS1035Label } from '../../apimachinery/validation/names.js';
import { isCRDConditionTrue } from '../apihelpers.js';
import { child, forbidden, goStrings, index, invalid, invalidGo, notSupported, required } from './errors.js';
import type { InternalConversion } from './internal.js';
import { validateCABundle, validateWebhookService, validateWebhookURL } from './webhook.js';

export interface ConversionOptions {
  readonly requireRecognizedConversionReviewVersion: boolean;
  readonly allowInvalidCABundle: boolean;
}

/** The ConversionReview versions this server speaks. */
export const REVIEW_VERSIONS = ['v1', 'v1beta1'];

/** validateCustomResourceConversion. */
export function validateConversion(conversion: InternalConversion | undefined, opts: ConversionOptions, path: string): FieldError[] {
  if (conversion === undefined) return [];
  const errs = enumString(child(path, 'strategy'), conversion.strategy, ['None', 'Webhook']);
  const cc = conversion.webhookClientConfig;
  if (conversion.strategy === 'Webhook') {
    if (cc === undefined) errs.push(required(child(path, 'webhookClientConfig'), 'required when strategy is set to Webhook'));
    else {
      const ccPath = child(path, 'webhookClientConfig');
      if ((cc.url === undefined) === (cc.service === undefined)) errs.push(required(ccPath, 'exactly one of url or service is required'));
      else if (cc.url !== undefined) errs.push(...validateWebhookURL(child(ccPath, 'url'), cc.url));
      else if (cc.service !== undefined) errs.push(...validateWebhookService(child(ccPath, 'service'), cc.service));
      if ((cc.caBundle ?? '') !== '' && !opts.allowInvalidCABundle) errs.push(...validateCABundle(child(ccPath, 'caBundle'), cc.caBundle ?? ''));
    }
    errs.push(...validateReviewVersions(conversion.conversionReviewVersions ?? [], opts.requireRecognizedConversionReviewVersion, child(path, 'conversionReviewVersions')));
  } else {
    if (cc !== undefined) errs.push(forbidden(child(path, 'webhookClientConfig'), 'should not be set when strategy is not set to Webhook'));
    if ((conversion.conversionReviewVersions ?? []).length > 0) {
      errs.push(forbidden(child(path, 'conversionReviewVersions'), 'should not be set when strategy is not set to Webhook'));
    }
  }
  return errs;
}

function validateReviewVersions(versions: readonly string[], requireRecognized: boolean, path: string): FieldError[] {
  if (versions.length === 0) return [required(path)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(invalid(index(path, i), v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const problem of isDNS1035Label(v)) errs.push(invalid(index(path, i), v, problem));
  });
  if (requireRecognized && !versions.some((v) => REVIEW_VERSIONS.includes(v))) {
    errs.push(invalidGo(path, goStrings(versions), `must include at least one of ${REVIEW_VERSIONS.join(', ')}`));
  }
  return errs;
}

/** An invalid CA bundle may stay on a CRD that already had one, and is fine before the CRD is established. */
export function allowInvalidCABundle(old: CustomResourceDefinition): boolean {
  if (!isCRDConditionTrue(old, 'Established')) return true;
  const caBundle = old.spec.conversion?.webhook?.clientConfig?.caBundle ?? '';
  return caBundle !== '' && validateCABundle('caBundle', caBundle).length > 0;
}

function enumString(path: string, value: string, accepted: readonly string[]): FieldError[] {
  if (value === '') return [required(path)];
  return accepted.includes(value) ? [] : [notSupported(path, value, accepted)];
}
