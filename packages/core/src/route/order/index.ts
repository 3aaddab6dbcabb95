export * from './problem.js';
export * from './patterns.js';
export {
  fixedOrder,
  fixedSequence,
  orientSequence,
  firstTurnSide,
  FIXED_ORDER_ALGORITHMS,
  type FixedOrderAlgorithm,
  type FixedOrderOptions,
} from './fixed.js';
export {
  orderFieldTracks,
  tightestBendRatio,
  trackOrderingProblem,
  defaultSkipCount,
  type OrderAlternative,
  type FieldOrderInput,
  type FieldOrderResult,
  type OrderTrack,
  type OrderVisit,
} from './fieldOrder.js';
export {
  refineOrderOnConnectors,
  transitionClassifier,
  DEFECT_COST,
  type ConnectorCost,
  type RealCostModel,
  type RefineOptions,
  type RefineResult,
  type EvaluatedRoute,
} from './connectedOrder.js';
