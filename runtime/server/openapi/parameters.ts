import type { Parameter } from './types.js';

/** Parameters of the generated paths, inline as kube-openapi writes them in v3 documents. */

function query(name: string, type: Parameter['schema']['type'], description: string, uniqueItems = false): Parameter {
  return { name, in: 'query', description, schema: uniqueItems ? { type, uniqueItems: true } : { type } };
}

export const NAME_PARAMETER: Parameter = { name: 'name', in: 'path', description: 'name of the resource', required: true, schema: { type: 'string', uniqueItems: true } };
export const NAMESPACE_PARAMETER: Parameter = {
  name: 'namespace',
  in: 'path',
  description: 'object name and auth scope, such as for teams and projects',
  required: true,
  schema: { type: 'string', uniqueItems: true },
};

const pretty = query('pretty', 'string', "If 'true', then the output is pretty printed.", true);
const dryRun = query('dryRun', 'string', 'When present, indicates that modifications should not be persisted. Valid values: All (process every stage without persisting).', true);
const fieldManager = query('fieldManager', 'string', 'A name associated with the actor or entity making these changes; at most 128 printable characters.', true);
const fieldValidation = query(
  'fieldValidation',
  'string',
  'How the server treats unknown and duplicate fields in the request: Ignore, Warn (the default: a warning for each) or Strict (the request fails).',
  true,
);
const force = query('force', 'boolean', 'Force an apply request to take ownership of conflicting fields; must be unset for non-apply patches.', true);
const gracePeriodSeconds = query('gracePeriodSeconds', 'integer', 'The duration in seconds before the object should be deleted; zero means delete immediately.', true);
const orphanDependents = query('orphanDependents', 'boolean', 'Deprecated: use propagationPolicy.', true);
const propagationPolicy = query('propagationPolicy', 'string', "Whether and how garbage collection is performed: 'Orphan', 'Background' or 'Foreground'.", true);

const allowWatchBookmarks = query('allowWatchBookmarks', 'boolean', 'Requests watch events with type BOOKMARK; servers may ignore it.', true);
const continueToken = query('continue', 'string', 'The token returned by a previous limited list, to fetch the next chunk.', true);
const fieldSelector = query('fieldSelector', 'string', 'A selector restricting the returned objects by their fields; defaults to everything.', true);
const labelSelector = query('labelSelector', 'string', 'A selector restricting the returned objects by their labels; defaults to everything.', true);
const limit = query('limit', 'integer', 'The maximum number of objects to return; a continue token is set when more remain.', true);
const resourceVersion = query('resourceVersion', 'string', 'Constrains which resource versions the request may be served from.', true);
const resourceVersionMatch = query('resourceVersionMatch', 'string', 'How resourceVersion is applied to list calls: Exact or NotOlderThan.', true);
const sendInitialEvents = query('sendInitialEvents', 'boolean', 'With watch=true, starts the watch stream with synthetic events for the current state.', true);
const timeoutSeconds = query('timeoutSeconds', 'integer', 'Timeout for the list/watch call, regardless of activity.', true);
const watch = query('watch', 'boolean', 'Watch for changes to the described resources and return them as a stream of add, update and remove notifications.', true);

const selection = [continueToken, fieldSelector, labelSelector, limit, resourceVersion, resourceVersionMatch, sendInitialEvents, timeoutSeconds];

export const LIST_PARAMETERS: readonly Parameter[] = [pretty, allowWatchBookmarks, ...selection, watch];
export const GET_PARAMETERS: readonly Parameter[] = [pretty];
export const CREATE_PARAMETERS: readonly Parameter[] = [pretty, dryRun, fieldManager, fieldValidation];
export const REPLACE_PARAMETERS: readonly Parameter[] = CREATE_PARAMETERS;
export const PATCH_PARAMETERS: readonly Parameter[] = [pretty, dryRun, fieldManager, fieldValidation, force];
export const DELETE_PARAMETERS: readonly Parameter[] = [pretty, dryRun, gracePeriodSeconds, orphanDependents, propagationPolicy];
export const DELETE_COLLECTION_PARAMETERS: readonly Parameter[] = [pretty, dryRun, gracePeriodSeconds, orphanDependents, propagationPolicy, ...selection];
