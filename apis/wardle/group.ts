import type { APIGroupDeclaration } from 'kube-ts-apiserver/runtime';
import { banFlunder } from './v1beta1/admission.js';

/**
 * What wardle.example.com declares beyond its types: sample-apiserver's BanFlunder admission
 * plugin. Served by the control plane's kube-apiserver in process (`npm start`), and by the
 * standalone aggregated server (`npm run serve-aggregated`), which serves every group but the
 * control plane's own.
 */
export const group = {
  admissionPlugins: [({ lookup }) => banFlunder(lookup)],
} satisfies APIGroupDeclaration;
