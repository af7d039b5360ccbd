export { DynamicFileCAContent, type DynamicFileOptions } from './dynamic-cafile-content.js';
export { DynamicCertKeyPairContent } from './dynamic-serving-content.js';
export { FileWatch, FILE_REFRESH_MS, type FileWatchOptions } from './file-watch.js';
export type { CABundleContentProvider, CAContentProvider, CertKeyContent, CertKeyContentProvider, ControllerRunner, Listener, Notifier } from './interfaces.js';
export { StaticCAContent, StaticCertKeyContent } from './static-content.js';
export { DynamicServingCertificateController, type SecureContextTarget, type TLSContent } from './tlsconfig.js';
export { UnionCAContent } from './union-ca-content.js';
