// REST mapping from kinds to resources (apimachinery's api/meta mappers and client-go's restmapper).
export { DefaultRESTMapper, unsafeGuessKindToResource } from './default.js';
export { MultiRESTMapper } from './multi.js';
export { PriorityRESTMapper, ANY } from './priority.js';
export { newDiscoveryRESTMapper, getAPIGroupResources, type APIGroupResources } from './discovery.js';
export { DeferredDiscoveryRESTMapper } from './deferred.js';
export { ShortcutExpander } from './shortcut.js';
export { SimpleCategoryExpander, DiscoveryCategoryExpander, UnionCategoryExpander, type CategoryExpander } from './category.js';
export { AmbiguousResourceError, AmbiguousKindError, NoResourceMatchError, NoKindMatchError, AggregateError, isNoMatchError, isAmbiguousError } from './errors.js';
export { asyncMapper, type RESTMapper, type StaticRESTMapper, type RESTMapping, type RESTScopeName } from './types.js';
export { groupVersionString, gvrString, gvkString, groupResourceString, parseGroupVersion } from './schema.js';
export type { GroupVersion, GroupResource, GroupKind, GroupVersionResource, GroupVersionKind } from './schema.js';
