export { fieldsFromSet, type Fields, type Set } from './fields.js';
export {
  andSelectors,
  escapeValue,
  everything,
  InvalidFieldSelectorError,
  nothing,
  oneTermEqualSelector,
  oneTermNotEqualSelector,
  parseSelector,
  parseSelectorOrDie,
  selectorFromSet,
  unescapeValue,
  type Operator,
  type Requirement,
  type Selector,
  type TransformFunc,
} from './selector.js';
