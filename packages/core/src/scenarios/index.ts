export type {
  ScenarioObjective,
  EquipmentScenario,
  ScenarioKpis,
  ScenarioResult,
  ScenarioComparison,
  CompareScenariosOptions,
  Planner,
  AsyncPlanner,
} from './scenarios.js';
export { scenarioRequest, rankScenarios, compareScenarios, compareScenariosAsync } from './scenarios.js';
