export type { TransportInput, TransportModel } from './transport.js';
export { haversineMeters, transportModel } from './transport.js';
export type {
  FieldVisit,
  FieldPlanVariant,
  SequencingField,
  SequencingObjective,
  SequencingRequest,
  SequencedStop,
  TransportLeg,
  DayMetrics,
  DaySequence,
} from './sequence.js';
export { sequenceFields, visitsFromPlan, visitsFromPlans, cornerStartNodes } from './sequence.js';
