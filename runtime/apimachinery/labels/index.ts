export { labelsFromSet, formatSet, type Labels, type Set } from './labels.js';
export { Requirement, InvalidSelectorError, type Operator } from './requirement.js';
export { everything, nothing, matchesNothing, selectorFromSet, validatedSelectorFromSet, selectorFromRequirements, type Selector } from './selector.js';
export { parse, parseToRequirements } from './parser.js';
export { isQualifiedName, isValidLabelValue, isDNS1123Subdomain } from './validation.js';
export { labelSelectorAsSelector } from './label-selector.js';
