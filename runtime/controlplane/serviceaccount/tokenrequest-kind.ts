import { resolveOpenAPISchema } from '../../apimachinery/schema/resolve.js';
import { OBJECT_META_DEFINITION } from '../../registry/generic/objectMeta.js';
import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
import type { GoTypeNames } from '../../apimachinery/schema/typeddecode.js';

/**
 * authentication.k8s.io/v1 TokenRequest as the `serviceaccounts/<name>/token` route reads and
 * answers it: its OpenAPI components (kube publishes them in the core group's document, the only
 * route that takes the kind) and the structural schema request bodies are defaulted, pruned and
 * validated with. The shapes are apis/authentication/v1/types.ts's TokenRequest*, which codegen
 * emits no definition for (it emits kinds that are resources, and TokenRequest is none); the
 * descriptions are the type's.
 */

const PACKAGE = 'io.k8s.api.authentication.v1';
export const TOKEN_REQUEST_DEFINITION = `${PACKAGE}.TokenRequest`;

const ref = (name: string, description: string): object => ({ description, allOf: [{ $ref: `#/components/schemas/${name}` }] });
const str = (description: string): object => ({ type: 'string', description });

/** The TokenRequest components; ObjectMeta is referenced, found in the document they join. */
export const TOKEN_REQUEST_SCHEMAS: Readonly<Record<string, unknown>> = {
  [TOKEN_REQUEST_DEFINITION]: {
    description: 'Requests a token for a service account: the body of `serviceaccounts/<name>/token` in the core group.',
    type: 'object',
    required: ['spec'],
    properties: {
      apiVersion: str('The versioned schema of this representation, as `group/version` (`v1` for the core group).'),
      kind: str('The REST kind this object represents, in CamelCase; servers may infer it from the endpoint.'),
      metadata: { $ref: `#/components/schemas/${OBJECT_META_DEFINITION}` },
      spec: ref(`${PACKAGE}.TokenRequestSpec`, 'What the token is for.'),
      status: ref(`${PACKAGE}.TokenRequestStatus`, 'The token, filled in by the server.'),
    },
    'x-kubernetes-group-version-kind': [{ group: 'authentication.k8s.io', kind: 'TokenRequest', version: 'v1' }],
  },
  [`${PACKAGE}.TokenRequestSpec`]: {
    description: 'What a requested token must be valid for.',
    type: 'object',
    required: ['audiences'],
    properties: {
      audiences: {
        description: "The audiences the token is for; a recipient must find one of its own identifiers here. Empty: the server's issuer audiences.",
        type: 'array',
        items: { type: 'string' },
        'x-kubernetes-list-type': 'atomic',
      },
      boundObjectRef: ref(`${PACKAGE}.BoundObjectReference`, 'The object the token is bound to.'),
      expirationSeconds: { description: 'The requested lifetime in seconds; the server may shorten it. At least 10 minutes.', type: 'integer', format: 'int64', default: 3600 },
    },
  },
  [`${PACKAGE}.TokenRequestStatus`]: {
    description: 'The issued token.',
    type: 'object',
    required: ['token', 'expirationTimestamp'],
    properties: {
      expirationTimestamp: { description: 'When the token expires.', type: 'string', format: 'date-time' },
      token: str('The opaque bearer token.'),
    },
  },
  [`${PACKAGE}.BoundObjectReference`]: {
    description: 'The object a service-account token is bound to: the token is invalid once the object is gone.',
    type: 'object',
    properties: {
      apiVersion: str("The referent's API version."),
      kind: str("The referent's kind: Pod, Secret or Node."),
      name: str("The referent's name."),
      uid: str("The referent's UID."),
    },
  },
};

/** The components' fields of named Go types (types.go: `UID types.UID`), which the typed decoder's errors print. */
export const TOKEN_REQUEST_GO_TYPES: GoTypeNames = { [`${PACKAGE}.BoundObjectReference`]: { uid: { name: 'types.UID' } } };

/**
 * The structural schema of a TokenRequest, metadata a bare object as in every kind's schema. Without
 * `required`: kube decodes the kind into Go structs, which enforce none of it (kubectl sends
 * `audiences: null` when no --audience is given), and TokenRequest validation checks what it checks.
 */
export const TOKEN_REQUEST_SCHEMA: JSONSchemaProps = withoutRequired(
  resolveOpenAPISchema({ components: { schemas: { ...TOKEN_REQUEST_SCHEMAS, [OBJECT_META_DEFINITION]: { type: 'object' } } } }, TOKEN_REQUEST_DEFINITION)!,
);

function withoutRequired(schema: JSONSchemaProps): JSONSchemaProps {
  const { required: _required, properties, ...rest } = schema;
  if (properties === undefined) return rest;
  return { ...rest, properties: Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, withoutRequired(v)])) };
}
