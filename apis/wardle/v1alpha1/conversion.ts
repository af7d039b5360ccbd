import type { Conversion } from 'kube-ts-apiserver/runtime';
import type * as hub from '../v1beta1/types.js';
import type { Flunder } from './types.js';

/**
 * v1alpha1 names one `reference` whose meaning depends on `referenceType`;
 * the hub (v1beta1) has one field per referent.
 */
export const FlunderConversion = {
  toHub(from: Flunder): hub.Flunder {
    const { spec, ...rest } = from;
    if (spec === undefined) return { ...rest, apiVersion: 'wardle.example.com/v1beta1' };
    const hubSpec: hub.FlunderSpec = {};
    if (spec.referenceType !== undefined) hubSpec.referenceType = spec.referenceType;
    if (spec.reference !== undefined) {
      if (spec.referenceType === 'Fischer') hubSpec.fischerReference = spec.reference;
      else hubSpec.flunderReference = spec.reference;
    }
    return { ...rest, apiVersion: 'wardle.example.com/v1beta1', spec: hubSpec };
  },
  fromHub(from: hub.Flunder): Flunder {
    const { spec, ...rest } = from;
    if (spec === undefined) return { ...rest, apiVersion: 'wardle.example.com/v1alpha1' };
    const out: Flunder['spec'] = {};
    if (spec.referenceType !== undefined) out.referenceType = spec.referenceType;
    const reference = spec.referenceType === 'Fischer' ? spec.fischerReference : spec.flunderReference;
    if (reference !== undefined) out.reference = reference;
    return { ...rest, apiVersion: 'wardle.example.com/v1alpha1', spec: out };
  },
} satisfies Conversion<Flunder, hub.Flunder>;
