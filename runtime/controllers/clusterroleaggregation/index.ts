export { ClusterRoleAggregationController, aggregatedRules, type ClusterRoleAggregationControllerOptions } from './controller.js';
