// The dynamic client (client-go's dynamic): any resource by GroupVersionResource, objects as unstructured JSON.
export { DynamicClient, DynamicResourceClient } from './client.js';
export { asUnstructured, asUnstructuredList, nestedField, nestedString, setNestedField, removeNestedField, type Unstructured, type UnstructuredList } from './unstructured.js';
