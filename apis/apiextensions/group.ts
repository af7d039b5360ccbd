import type { APIGroupDeclaration } from '../../runtime/registry/types.js';
import { withCRDCleanupOnDelete } from '../../runtime/apiextensions/controllers/crd-delete.js';

/**
 * What apiextensions.k8s.io declares beyond its types: it is served by apiextensions-apiserver,
 * and deleting a CustomResourceDefinition first removes its custom resources (kube's
 * CustomResourceCleanup finalizer).
 */
export const group = {
  server: 'apiextensions-apiserver',
  rest: {
    CustomResourceDefinition: ({ storages, storage }) => ({ storages: withCRDCleanupOnDelete(storages, storage) }),
  },
  unservedSchemeVersions: { v1beta1: ['CustomResourceDefinition', 'CustomResourceDefinitionList', 'ConversionReview'] },
} satisfies APIGroupDeclaration;
