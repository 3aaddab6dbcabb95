/**
 * Controlled traffic: the request of `planTrafficSystem` (several operations on one field, on one
 * set of lanes) and what it returns. Plain JSON, units in the names.
 */
import type {
  FieldGeometry,
  HeadlandInput,
  MachineInput,
  ObstacleInput,
  Plan,
  Position,
  RouteApiOptions,
  SmoothingStrategyType,
} from '../types.js';

/** What an operation does: the drill lays the tramlines, sprayers drive them; the others share the lanes. */
export type OperationKind = 'drill' | 'sprayer' | 'harvester' | 'spreader' | 'other';

/** A machine with its running gear. */
export interface TrafficMachineInput extends MachineInput {
  /** Track gauge, wheel centre to wheel centre across the machine, meters (default `traffic.gaugeMeters`). */
  gaugeMeters?: number;
  /** Width of one tyre, meters (default `traffic.tyreWidthMeters`). */
  tyreWidthMeters?: number;
}

export interface TrafficOperationInput {
  /** Shown in results (default: the kind and its position, `sprayer 2`). */
  name?: string;
  kind: OperationKind;
  machine: TrafficMachineInput;
  routeOptions?: RouteApiOptions;
}

export interface TrafficInput {
  /** Track gauge of the machines, meters (wheel centre to wheel centre). */
  gaugeMeters: number;
  /** Tyre width, meters. */
  tyreWidthMeters: number;
  /** Added to the tyre width where the drill shuts its rows off over a tramline, meters (default 0.1). */
  tyreMarginMeters?: number;
  /** The drill's first pass along the reference line: full width (default), or half width (half the sections off). */
  firstPass?: 'full' | 'half';
  /** Drill row spacing, meters: with it, each tramline pass lists the rows to shut off. */
  rowSpacingMeters?: number;
  /**
   * The AB line the lanes run along: a point on it and its bearing (degrees clockwise from north). The
   * drill's first pass lies beside it. Omitted: the heading the planner picks for the drill, the line
   * along it touching the field on one side.
   */
  referenceLine?: { point: Position; headingDegrees: number };
  /** Also plan each operation alone at its own best heading, for comparison (default true). */
  compareIndependent?: boolean;
  /** Also report the share with the turns' and connectors' footprints (`traffickedShareWithTurns`; default false). */
  includeTurns?: boolean;
}

export interface TrafficSystemRequest {
  field?: FieldGeometry;
  /** Shape B's name for `field`. */
  boundary?: FieldGeometry;
  obstacles?: ObstacleInput[];
  /** The drill's headland; the other operations get as many passes as fill the same depth (at least one). */
  headland?: HeadlandInput;
  options?: string;
  smoothingStrategy?: SmoothingStrategyType;
  accessPoints?: Position[];
  traffic: TrafficInput;
  operations: TrafficOperationInput[];
}

/** One wheel lane of a tramline pass, across the pass. */
export interface TramLane {
  /** Lane centre from the pass's centre line, meters, positive to the right of the pass's driving direction. */
  offsetMeters: number;
  /** Across the pass, the band the drill leaves unsown (tyre + margin, within the pass), meters, right positive. */
  shutOffFromMeters: number;
  shutOffToMeters: number;
  /** Rows to shut off, numbered from 1 at the pass's left edge (with `traffic.rowSpacingMeters`). */
  rows?: number[];
}

/** A drill pass that carries tramline lanes. */
export interface TramlinePass {
  /** `route[].sequence` of the pass in the drill's plan. */
  sequence: number;
  type: 'Track' | 'ExteriorHeadland';
  /**
   * `lanes`: the pass (a track) or a stretch of it (a headland pass along a side parallel to the lanes)
   * runs along the lanes; `boundary`: a headland pass carrying the tram loop round the field.
   */
  along: 'lanes' | 'boundary';
  /** The pass's number counted from the reference line (tracks; 1 = the pass beside it) or its headland pass index. */
  passNumber: number;
  lanes: TramLane[];
  /** Lon/lat of the pass's centre line (of the stretch, for a headland stretch along the lanes). */
  coordinates: Position[];
}

export interface TrafficOperationPlan {
  name: string;
  kind: OperationKind;
  widthMeters: number;
  /** Width ÷ the base width. */
  multiple: number;
  gaugeMeters: number;
  tyreWidthMeters: number;
  headlandPasses: number;
  /** The request planned for this operation (shape A): its `tracks.referenceLine` puts it on the grid. */
  request: Record<string, unknown>;
  plan: Plan;
  /** This operation's wheel footprints ÷ field area (working passes). */
  traffickedShare: number;
  /** Tramline passes (the drill's plan). */
  tramlinePasses?: TramlinePass[];
}

export interface TrafficShares {
  /** Union of the wheel footprints of every operation's working passes (tracks, headland passes) ÷ field area. */
  traffickedShare: number;
  /** The same, turns and connectors included (with `traffic.includeTurns`). */
  traffickedShareWithTurns?: number;
  traffickedSquareMeters: number;
}

export interface TrafficSystemResult {
  fieldAreaSquareMeters: number;
  baseWidthMeters: number;
  /** Sprayer width ÷ drill width (absent without both). */
  tramlineMultiple?: number;
  /** The lanes' reference line: a point on it and its bearing. */
  referenceLine: { point: Position; headingDegrees: number; source: 'request' | 'planner' };
  /** Wheel-lane centre lines inside the field, lon/lat (the lanes every machine of the system drives). */
  lanes: Position[][];
  /**
   * The lanes' phases planned: 1, or more where the wider operations (the sprayer) were also planned on
   * the reference line moved by whole base widths and the best kept (docs/traffic.md, "The lane grid").
   */
  phasesPlanned: number;
  operations: TrafficOperationPlan[];
  system: TrafficShares;
  /** The same operations each planned alone at its own best heading (random traffic). */
  independent?: { operations: TrafficOperationPlan[]; shares: TrafficShares };
}
