import type { ObjectMeta } from '../../../apis/meta/v1/types.js';
import { newInternalError, newMethodNotSupported, type GroupResource } from '../../apimachinery/errors/index.js';
import type { RESTAuthContext } from '../../registry/types.js';
import type { Creater, KubeObject, ResourceStorage } from '../../registry/rest.js';

/**
 * What the review kinds (access reviews, TokenReview, SelfSubjectReview) have in common: kube
 * serves them with a REST storage that implements Create only and stores nothing, so the answer
 * is computed per request and no other verb exists (discovery lists `create` alone).
 */

/**
 * A storage whose only verb is `create`. The installer never routes another verb to it (the
 * kinds declare `@onlyVerbs create`); should anything call one, it is kube's MethodNotSupported.
 */
export function createOnlyStorage(gr: GroupResource, create: Creater['create']): ResourceStorage {
  const refuse = (verb: string) => (): Promise<never> => Promise.reject(newMethodNotSupported(gr, verb));
  return {
    main: {
      create,
      get: refuse('get'),
      list: refuse('list'),
      watch: refuse('watch'),
      update: refuse('update'),
      delete: refuse('delete'),
      deleteCollection: refuse('deletecollection'),
    },
  };
}

/**
 * The metadata of an answer: the request's, never given a uid or resourceVersion since nothing is
 * stored, and with kube 1.32's zero creationTimestamp, which its JSON encodes as null.
 */
export function answerMetadata(meta: ObjectMeta | undefined): ObjectMeta {
  return { ...meta, creationTimestamp: null } as unknown as ObjectMeta;
}

/** The review answered: the request as sent with `status` set, in kube's field order (apiVersion, kind, metadata, spec, status). */
export function withStatus(obj: KubeObject, status: object): KubeObject {
  const { apiVersion, kind, metadata, status: _sent, ...rest } = obj;
  return { apiVersion, kind, metadata: answerMetadata(metadata as ObjectMeta | undefined), ...rest, status } as unknown as KubeObject;
}

/**
 * The server's authentication and authorization for a review storage. A server that installs a
 * review kind without them (it has no authorizer to ask) answers every review with a 500 that
 * says so, rather than an answer it cannot give.
 */
export function requireAuth(auth: RESTAuthContext | undefined, kind: string): RESTAuthContext {
  if (auth === undefined) throw newInternalError(new Error(`${kind} needs the server's authenticator and authorizer, and this server has none`));
  return auth;
}
