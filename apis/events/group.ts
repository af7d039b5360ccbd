import type { APIGroupDeclaration } from '../../runtime/registry/types.js';
import { eventStorageCodec } from './v1/core-conversion.js';

/**
 * events.k8s.io is kube-apiserver's own group (kube's events RESTStorageProvider). Its Events are
 * the core group's: kube's storage factory makes the two resources cohabit, encoding both as
 * core/v1 Events under one key prefix, so an Event written through either API is read, listed
 * and watched through the other, with one resourceVersion sequence and --event-ttl.
 */
export const group = {
  server: 'kube-apiserver',
  storedAs: {
    Event: { group: '', resource: 'events', version: 'v1', kind: 'Event', codec: eventStorageCodec },
  },
  // As core Events (kube's DefaultWatchCacheSizes, events.events.k8s.io#0): served from storage, so
  // each watch converts the core Events its own storage watch delivers, as kube's does.
  watchCache: { Event: false },
  unservedSchemeVersions: { v1beta1: ['Event', 'EventList'] },
} satisfies APIGroupDeclaration;
