export { orderItems, type OrderItemsOptions, type OrderItemsResult, type OptimizerReport } from './optimize.js';
export { improveOrder, type LocalSearchOptions, type LocalSearchResult, type StopReason } from './local-search.js';
export { routeLowerBound, assignmentMinimum, type LowerBound } from './lower-bound.js';
export { greedyOrder } from './construct.js';
export { objectiveRates, type ObjectiveMachine, type ObjectiveRates } from './objective.js';
