import { newForbidden, newInternalError } from '../../apimachinery/errors/index.js';
import type { APIRequest } from '../../apimachinery/request/http.js';
import { authorizerAttributes, type AuthorizationResult } from '../../authorization/authorizer.js';
import type { ValidateObjectFunc } from '../../registry/rest.js';

/**
 * The create validation of a PUT or PATCH that creates (create on update, apply on an absent
 * object), as kube's handlers wrap it (withAuthorization): the user was authorized for `update`
 * or `patch` only, so creating needs `create` on the same resource too, or a user who may patch
 * could create what they may not. The authorizer is asked once per request, however often the
 * store retries; an allow runs `validate`, anything else is kube's 403 (`<resource> "<name>" is
 * forbidden: <reason>`), a failing authorizer 500. Requests no authorization filter saw
 * (in-process callers behind the filters) are not checked again.
 */
export function withCreateAuthorization(req: APIRequest, validate: ValidateObjectFunc): ValidateObjectFunc {
  const authorizer = req.authorizer;
  if (authorizer === undefined) return validate;
  const attributes = { ...authorizerAttributes(req), verb: 'create' };
  let decision: Promise<AuthorizationResult> | undefined;
  return async (obj, old) => {
    decision ??= authorizer.authorize(attributes);
    let result: AuthorizationResult;
    try {
      result = await decision;
    } catch (err) {
      throw newInternalError(err);
    }
    if (result.decision !== 'allow') {
      throw newForbidden({ group: attributes.apiGroup, resource: attributes.resource }, attributes.name, result.reason);
    }
    await validate(obj, old);
  };
}
