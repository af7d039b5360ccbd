import type { Environment } from '@marcbachmann/cel-js';
import type { MethodOverride } from '../engine.js';
import { registerIP } from './ip.js';
import { registerLists } from './lists.js';
import { registerQuantity } from './quantity.js';
import { REGEX_OVERRIDES, registerRegex } from './regex.js';
import { registerSets } from './sets.js';
import { registerStrings, STRING_OVERRIDES } from './strings.js';
import { registerURLs } from './urls.js';

export { QuantityValue } from './quantity.js';
export { URLValue } from './urls.js';
export { CIDRValue, IPValue } from './ip.js';

/**
 * The function libraries of the apiserver's CEL base environment that rules use: strings,
 * lists, regex, URLs, quantity, sets, IP and CIDR. One registration serves codegen's compile
 * checks and request-time evaluation, so both accept the same rules.
 */
export function registerKubernetesLibraries(env: Environment): void {
  registerStrings(env);
  registerLists(env);
  registerRegex(env);
  registerURLs(env);
  registerQuantity(env);
  registerSets(env);
  registerIP(env);
}

/** The methods whose cel-js implementation the engine replaces (Go and RE2 semantics). */
export const METHOD_OVERRIDES: ReadonlyMap<string, MethodOverride> = new Map([...STRING_OVERRIDES, ...REGEX_OVERRIDES]);
