export type {
  ScenarioObjective,
  EquipmentScenario,
  ScenarioKpis,
  ScenarioResult,
  ScenarioComparison,
  CompareScenariosOptions,
  Planner,
} from './scenarios.js';
export { scenarioRequest, rankScenarios, compareScenarios } from './scenarios.js';
