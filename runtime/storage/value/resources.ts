import type { GroupResource } from '../../apimachinery/errors/index.js';
import type { ValueTransformer } from '../transformer.js';
import { newCBCTransformer, newGCMTransformer } from './aes.js';
import { encryptCheckTransformer } from './identity.js';
import { PrefixTransformers, type PrefixTransformer } from './prefix.js';
import { newSecretboxTransformer } from './secretbox.js';

/**
 * Transformers per resource (kube's encryptionconfig: getTransformerOverrides and
 * transformerFromOverrides), built from an already validated EncryptionConfiguration.
 */

/** One provider of a rule; `secret` is the decoded key. */
export type ProviderConfig = { readonly type: 'identity' } | { readonly type: 'aesgcm' | 'aescbc' | 'secretbox'; readonly keys: readonly { readonly name: string; readonly secret: Buffer }[] };

/** One `resources[]` entry: the resources it covers (`*` for any resource, `*` group for any group) and its providers in order. */
export interface EncryptionRule {
  readonly resources: readonly GroupResource[];
  readonly providers: readonly ProviderConfig[];
}

/** kube's storagevalue.ResourceTransformers. */
export interface ResourceTransformers {
  transformerForResource(gr: GroupResource): ValueTransformer;
}

const PROVIDER_PREFIXES = { aescbc: 'k8s:enc:aescbc:v1:', aesgcm: 'k8s:enc:aesgcm:v1:', secretbox: 'k8s:enc:secretbox:v1:' } as const;

const KEY_CONSTRUCTORS = { aescbc: newCBCTransformer, aesgcm: newGCMTransformer, secretbox: newSecretboxTransformer } as const;

/** The provider's place in a rule's list: its prefix, and its keys behind their `<name>:` prefixes (the first key writes). */
function providerTransformer(p: ProviderConfig): PrefixTransformer {
  if (p.type === 'identity') return { prefix: Buffer.alloc(0), transformer: encryptCheckTransformer };
  const keys = p.keys.map((k) => ({ prefix: Buffer.from(`${k.name}:`), transformer: KEY_CONSTRUCTORS[p.type](k.secret) }));
  const noMatch = p.type === 'secretbox' ? 'no matching key was found for the provided Secretbox transformer' : 'no matching key was found for the provided AES transformer';
  return { prefix: Buffer.from(PROVIDER_PREFIXES[p.type]), transformer: new PrefixTransformers(keys, noMatch) };
}

function grKey(gr: GroupResource): string {
  return `${gr.resource}.${gr.group}`;
}

/** How the configuration file spells a GroupResource (kube's grYAMLString): `*.` is every core resource. */
export function groupResourceYAML(gr: GroupResource): string {
  if (gr.group === '' && gr.resource === '*') return '*.';
  return gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`;
}

/**
 * The transformers of a configuration. A resource listed in several rules gets their providers
 * in rule order; a resource after a rule for `*.<its group>` or `*.*` is an error (kube's
 * "is masked by earlier rule"), as that rule would always win.
 */
export function newResourceTransformers(rules: readonly EncryptionRule[]): ResourceTransformers {
  const lists = new Map<string, PrefixTransformer[]>();
  for (const rule of rules) {
    const providers = rule.providers.map(providerTransformer);
    for (const gr of rule.resources) {
      for (const wildcard of [
        { group: gr.group, resource: '*' },
        { group: '*', resource: '*' },
      ]) {
        if (lists.has(grKey(wildcard))) throw new Error(`resource ${JSON.stringify(groupResourceYAML(gr))} is masked by earlier rule ${JSON.stringify(groupResourceYAML(wildcard))}`);
      }
      const list = lists.get(grKey(gr)) ?? [];
      list.push(...providers);
      lists.set(grKey(gr), list);
    }
  }
  const overrides = new Map<string, ValueTransformer>();
  for (const [key, list] of lists) overrides.set(key, new PrefixTransformers(list, 'no matching prefix found'));
  return {
    // Most specific first: the resource, then every resource of its group, then everything;
    // a resource the configuration leaves out is stored as is and refuses encrypted data.
    transformerForResource: (gr) => overrides.get(grKey(gr)) ?? overrides.get(grKey({ group: gr.group, resource: '*' })) ?? overrides.get('*.*') ?? encryptCheckTransformer,
  };
}

/**
 * The GroupResource of a storage prefix as the registry lays them out (`/<plural>/` for the core
 * group, `/<group>/<plural>/` otherwise: registry/generic/keys.ts storagePrefix). Any other
 * layout is read as a core resource named by the whole prefix, which only `*.` and `*.*` match.
 */
export function groupResourceOfPrefix(resourcePrefix: string): GroupResource {
  const segments = resourcePrefix.split('/').filter((s) => s !== '');
  if (segments.length === 2) return { group: segments[0] as string, resource: segments[1] as string };
  return { group: '', resource: segments.join('/') };
}
