import type { ConfigMap } from '../../apis/core/v1/configmap.js';
import { CoreV1Client } from '../../generated/clientset/core/v1/index.js';
import { isForbidden, isNotFound } from '../apimachinery/errors/index.js';
import type { DeepReadonly, RESTClient } from '../client/index.js';
import {
  AUTHENTICATION_CONFIGMAP_NAME as NAME,
  AUTHENTICATION_CONFIGMAP_NAMESPACE as NAMESPACE,
  authenticationInfoFor,
  newSingleConfigMapInformer,
  type ClusterAuthenticationInfo,
} from '../controllers/clusterauthenticationtrust/index.js';

/** The Role kube binds readers of the ConfigMap to (named in the hint of a 403). */
const READER_ROLE = 'extension-apiserver-authentication-reader';

/**
 * The control plane's kube-system/extension-apiserver-authentication as an aggregated server reads
 * it (kube's ConfigMapCAController and RequestHeaderAuthRequestController): read once at start
 * (a missing ConfigMap is no configuration; any other failure stops the start unless tolerated),
 * then followed through an informer of that one ConfigMap. A change is applied when it parses;
 * a deleted ConfigMap or unreadable content keeps the last good configuration, as kube keeps
 * the last loaded bundle.
 */
export class AuthenticationConfigMap {
  private info: ClusterAuthenticationInfo;
  private lastData: string;
  private readonly listeners: ((info: ClusterAuthenticationInfo) => void)[] = [];
  private readonly stopping = new AbortController();
  private running: Promise<void> | undefined;

  private constructor(
    initial: DeepReadonly<ConfigMap> | undefined,
    private readonly log: (message: string) => void,
  ) {
    this.info = initial === undefined ? {} : authenticationInfoFor(initial.data);
    this.lastData = JSON.stringify(initial?.data ?? {});
  }

  static async start(rest: RESTClient, o: { readonly tolerateLookupFailure: boolean; readonly log?: (message: string) => void }): Promise<AuthenticationConfigMap> {
    const log = o.log ?? ((m: string) => process.stderr.write(`W ${m}\n`));
    let initial: ConfigMap | undefined;
    try {
      initial = await new CoreV1Client(rest).configmaps(NAMESPACE).get(NAME);
      authenticationInfoFor(initial.data);
    } catch (err) {
      if (!isNotFound(err)) {
        if (isForbidden(err)) {
          log(
            `Unable to get configmap/${NAME} in ${NAMESPACE}.  Usually fixed by 'kubectl create rolebinding -n ${NAMESPACE} ROLEBINDING_NAME --role=${READER_ROLE} --serviceaccount=YOUR_NS:YOUR_SA'`,
          );
        }
        if (!o.tolerateLookupFailure) throw new Error(`unable to load configmap based request-header-client-ca-file: ${(err as Error).message}`, { cause: err });
        log(`Error looking up in-cluster authentication configuration: ${(err as Error).message}`);
        log('Continuing without authentication configuration. This may treat all requests as anonymous.');
        log('To require authentication configuration lookup to succeed, set --authentication-tolerate-lookup-failure=false');
      }
      initial = undefined;
    }
    const cm = new AuthenticationConfigMap(initial, log);
    cm.follow(rest);
    return cm;
  }

  /** The configuration now. */
  current(): ClusterAuthenticationInfo {
    return this.info;
  }

  /** Called with every new configuration. */
  onChange(listener: (info: ClusterAuthenticationInfo) => void): void {
    this.listeners.push(listener);
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.running;
  }

  private follow(rest: RESTClient): void {
    const informer = newSingleConfigMapInformer(rest, NAMESPACE, NAME);
    const apply = (cm: DeepReadonly<ConfigMap>): void => {
      const data = JSON.stringify(cm.data ?? {});
      if (data === this.lastData) return;
      let info: ClusterAuthenticationInfo;
      try {
        info = authenticationInfoFor(cm.data);
      } catch (err) {
        this.log(`configmap/${NAME} in ${NAMESPACE}: keeping the last authentication configuration: ${(err as Error).message}`);
        return;
      }
      this.lastData = data;
      this.info = info;
      for (const l of this.listeners) l(info);
    };
    informer.addEventHandler({ onAdd: apply, onUpdate: (_old, cm) => apply(cm) });
    this.running = informer.run(this.stopping.signal);
  }
}
