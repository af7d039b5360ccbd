import type { ApiModel } from '../model/types.js';
import type { OutputFile } from './output.js';
import { paths } from './paths.js';

/**
 * One structural JSON schema per kind and version: what the server's
 * validator compiles and what a CRD's openAPIV3Schema carries.
 */
export function emitSchemas(model: ApiModel): OutputFile[] {
  return model.groups
    .filter((g) => g.origin === 'source')
    .flatMap((g) =>
      g.versions.flatMap((v) =>
        v.kinds.map((k): OutputFile => ({
          path: paths.schema(g, v, k),
          format: 'json',
          value: k.schema,
        })),
      ),
    );
}
