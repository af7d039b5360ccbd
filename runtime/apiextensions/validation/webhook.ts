import { X509Certificate } from 'node:crypto';
import type { ServiceReference } from '../../../apis/apiextensions/v1/types.js';
import type { FieldError } from '../../apimachinery/validation/field.js';
import { isDNS1123Subdomain, isValidPortNum } from '../../apimachinery/validation/names.js';
import { child, invalid, required } from './errors.js';

const FORM = '; desired format: https://host[/path]';

/** webhook.ValidateWebhookURL with https forced. */
export function validateWebhookURL(path: string, raw: string): FieldError[] {
  let u: URL;
  try {
    u = new URL(raw);
  } catch (err) {
    return [required(path, `url must be a valid URL: ${(err as Error).message}${FORM}`)];
  }
  const errs: FieldError[] = [];
  const scheme = u.protocol.replace(/:$/, '');
  if (scheme !== 'https') errs.push(invalid(path, scheme, `'https' is the only allowed URL scheme${FORM}`));
  if (u.host === '') errs.push(invalid(path, u.host, `host must be specified${FORM}`));
  if (u.username !== '' || u.password !== '') errs.push(invalid(path, u.password === '' ? u.username : `${u.username}:${u.password}`, 'user information is not permitted in the URL'));
  if (u.hash !== '') errs.push(invalid(path, u.hash.slice(1), 'fragments are not permitted in the URL'));
  if (u.search !== '') errs.push(invalid(path, u.search.slice(1), 'query parameters are not permitted in the URL'));
  return errs;
}

/** webhook.ValidateWebhookService (port defaulted to 443 when absent). */
export function validateWebhookService(path: string, svc: ServiceReference): FieldError[] {
  const errs: FieldError[] = [];
  if ((svc.name ?? '') === '') errs.push(required(child(path, 'name'), 'service name is required'));
  if ((svc.namespace ?? '') === '') errs.push(required(child(path, 'namespace'), 'service namespace is required'));
  const port = svc.port ?? 443;
  const portErrs = isValidPortNum(port);
  if (portErrs.length > 0) errs.push(invalid(child(path, 'port'), port, `port is not valid: ${portErrs.join(', ')}`));
  const urlPath = svc.path;
  if (urlPath === undefined || urlPath === '/' || urlPath === '') return errs;
  const pathField = child(path, 'path');
  if (urlPath === '//') return [...errs, invalid(pathField, urlPath, 'segment[0] may not be empty')];
  if (!urlPath.startsWith('/')) errs.push(invalid(pathField, urlPath, "must start with a '/'"));
  let toCheck = urlPath.slice(1);
  if (toCheck.endsWith('/')) toCheck = toCheck.slice(0, -1);
  toCheck.split('/').forEach((step, i) => {
    if (step === '') {
      errs.push(invalid(pathField, urlPath, `segment[${i}] may not be empty`));
      return;
    }
    for (const failure of isDNS1123Subdomain(step)) errs.push(invalid(pathField, urlPath, `segment[${i}]: ${failure}`));
  });
  return errs;
}

/** webhook.ValidateCABundle: the (base64) bundle must hold PEM certificates. */
export function validateCABundle(path: string, caBundle: string): FieldError[] {
  const pem = Buffer.from(caBundle, 'base64').toString('utf8');
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  const parses =
    blocks.length > 0 &&
    blocks.every((b) => {
      try {
        new X509Certificate(b);
        return true;
      } catch {
        return false;
      }
    });
  return parses ? [] : [invalid(path, caBundle, 'data does not contain any valid RSA or ECDSA certificates')];
}
