import { newForbidden, newInternalError } from '../../apimachinery/errors/index.js';
import type { Filter } from '../../apimachinery/request/http.js';
import { authorizerAttributes, type Attributes, type Authorizer } from '../../authorization/authorizer.js';
import type { Logger } from './log.js';

export const DECISION_ANNOTATION_KEY = 'authorization.k8s.io/decision';
export const REASON_ANNOTATION_KEY = 'authorization.k8s.io/reason';

/**
 * WithAuthorization: lets the request through only when the authorizer allows it (an allow
 * stands even if the authorizer also failed). Denied or undecided requests get 403 Forbidden
 * worded as kube's; a failing authorizer 500. The decision and reason go to the audit annotations.
 */
export function withAuthorization(authorizer: Authorizer, logger: Logger): Filter {
  return async (req, res, next) => {
    const attributes = authorizerAttributes(req);
    let result;
    try {
      result = await authorizer.authorize(attributes);
    } catch (err) {
      req.auditAnnotations.set(REASON_ANNOTATION_KEY, 'internal error');
      logger.error('authorizer failed', { method: req.method, URI: req.raw.url, err });
      res.writeError(newInternalError(err));
      return;
    }
    if (result.decision === 'allow') {
      req.authorizer = authorizer;
      req.auditAnnotations.set(DECISION_ANNOTATION_KEY, 'allow');
      req.auditAnnotations.set(REASON_ANNOTATION_KEY, result.reason);
      return next(req, res);
    }
    req.auditAnnotations.set(DECISION_ANNOTATION_KEY, 'forbid');
    req.auditAnnotations.set(REASON_ANNOTATION_KEY, result.reason);
    res.writeError(forbiddenError(attributes, result.reason));
  };
}

/** responsewriters.ForbiddenStatusError: `<resource>.<group> "<name>" is forbidden: User "u" cannot …[: reason]`. */
export function forbiddenError(attributes: Attributes, reason: string): ReturnType<typeof newForbidden> {
  const message = sanitize(forbiddenMessage(attributes));
  return newForbidden({ group: attributes.apiGroup, resource: attributes.resource }, attributes.name, reason === '' ? message : `${message}: ${reason}`);
}

function forbiddenMessage(a: Attributes): string {
  const user = JSON.stringify(a.user?.name ?? '');
  if (!a.isResourceRequest) return `User ${user} cannot ${a.verb} path ${JSON.stringify(a.path)}`;
  const resource = JSON.stringify(a.subresource === '' ? a.resource : `${a.resource}/${a.subresource}`);
  const where = a.namespace !== '' ? `in the namespace ${JSON.stringify(a.namespace)}` : 'at the cluster scope';
  return `User ${user} cannot ${a.verb} resource ${resource} in API group ${JSON.stringify(a.apiGroup)} ${where}`;
}

/** kube escapes HTML in the message (the sanitizer of responsewriters). */
function sanitize(s: string): string {
  return s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}
