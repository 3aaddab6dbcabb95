/**
 * The traffic request checked and resolved: every operation's width a whole multiple of the base
 * width (the drill's), gauges no wider than the machines, tyres narrower than the gauge. A bad value
 * is a `PlanError` naming the request field and the nearest values that fit.
 */
import { PlanError } from '../errors.js';
import type { MachineInput, Position, RouteApiOptions } from '../types.js';
import type { OperationKind, TrafficSystemRequest } from './types.js';

/** Operations one call plans at most. */
export const MAX_OPERATIONS = 8;
/** Widths within this of a whole multiple of the base width count as one, meters. */
export const WIDTH_TOLERANCE_METERS = 0.001;
export const DEFAULT_TYRE_MARGIN_METERS = 0.1;
const KINDS: readonly OperationKind[] = ['drill', 'sprayer', 'harvester', 'spreader', 'other'];

export interface ResolvedOperation {
  index: number;
  name: string;
  kind: OperationKind;
  widthMeters: number;
  /** Width ÷ base width, a whole number. */
  multiple: number;
  gaugeMeters: number;
  tyreWidthMeters: number;
  machine: MachineInput;
  routeOptions?: RouteApiOptions;
}

export interface ResolvedTraffic {
  operations: ResolvedOperation[];
  baseWidthMeters: number;
  /** Index of the drill in `operations`, and of the first sprayer (tramlines need both). */
  drill?: number;
  sprayer?: number;
  tyreMarginMeters: number;
  firstPass: 'full' | 'half';
  rowSpacingMeters?: number;
  referenceLine?: { point: Position; headingDegrees: number };
  compareIndependent: boolean;
  includeTurns: boolean;
}

function fail(path: string, message: string): never {
  throw new PlanError('invalid-request', `${path}: ${message}`, [{ path, message }]);
}

/** Machines that cannot share the lanes (HTTP 422): the message names what fits. */
function misfit(path: string, message: string): never {
  throw new PlanError('infeasible', `${path}: ${message}`, [{ path, message }]);
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

function positive(v: unknown, path: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) fail(path, 'must be a positive number of meters');
  return v;
}

/** "24 or 36 m": the whole multiples of `base` nearest `width` (at least one base width). */
export function nearestMultiples(widthMeters: number, baseMeters: number): number[] {
  const lo = Math.max(1, Math.floor(widthMeters / baseMeters)),
    hi = Math.max(1, Math.ceil(widthMeters / baseMeters));
  return [...new Set([lo, hi])].map((k) => round3(k * baseMeters));
}

function readReferenceLine(v: unknown): ResolvedTraffic['referenceLine'] {
  if (v === undefined || v === null) return undefined;
  const path = 'traffic.referenceLine';
  if (typeof v !== 'object' || Array.isArray(v)) fail(path, 'must be an object { point: [lon, lat], headingDegrees }');
  const r = v as Record<string, unknown>;
  const p = r.point;
  if (!Array.isArray(p) || p.length < 2 || !p.every((x) => typeof x === 'number' && Number.isFinite(x)))
    fail(`${path}.point`, 'must be a [lon, lat] position');
  if (Math.abs(p[0] as number) > 180 || Math.abs(p[1] as number) > 90)
    fail(`${path}.point`, 'is not a [lon, lat] position (is the order [lon, lat]?)');
  const h = r.headingDegrees;
  if (typeof h !== 'number' || !Number.isFinite(h) || Math.abs(h) > 360)
    fail(`${path}.headingDegrees`, 'must be a bearing from -360 to 360 degrees');
  return { point: [p[0] as number, p[1] as number], headingDegrees: ((h % 360) + 360) % 360 };
}

function readOperation(o: unknown, i: number, traffic: Record<string, unknown>): Omit<ResolvedOperation, 'multiple'> {
  const p = `operations[${i}]`;
  if (typeof o !== 'object' || o === null || Array.isArray(o)) fail(p, 'must be an object { kind, machine }');
  const op = o as Record<string, unknown>;
  if (!KINDS.includes(op.kind as OperationKind)) fail(`${p}.kind`, `must be one of ${KINDS.join(', ')}`);
  const kind = op.kind as OperationKind;
  if (typeof op.machine !== 'object' || op.machine === null) fail(`${p}.machine`, 'must be an object');
  const { gaugeMeters, tyreWidthMeters, ...machine } = op.machine as Record<string, unknown>;
  const widthMeters = positive(machine.widthMeters, `${p}.machine.widthMeters`);
  const gauge =
    gaugeMeters !== undefined
      ? positive(gaugeMeters, `${p}.machine.gaugeMeters`)
      : positive(traffic.gaugeMeters, 'traffic.gaugeMeters');
  const tyre =
    tyreWidthMeters !== undefined
      ? positive(tyreWidthMeters, `${p}.machine.tyreWidthMeters`)
      : positive(traffic.tyreWidthMeters, 'traffic.tyreWidthMeters');
  const gaugePath = gaugeMeters !== undefined ? `${p}.machine.gaugeMeters` : 'traffic.gaugeMeters';
  if (gauge > widthMeters + WIDTH_TOLERANCE_METERS)
    misfit(
      gaugePath,
      `the ${gauge} m gauge is wider than the ${widthMeters} m machine of ${p}: ` +
        `a gauge of at most ${widthMeters} m fits (or a machine at least ${gauge} m wide)`,
    );
  const margin = (traffic.tyreMarginMeters as number | undefined) ?? DEFAULT_TYRE_MARGIN_METERS;
  if (tyre + margin >= gauge)
    misfit(
      tyreWidthMeters !== undefined ? `${p}.machine.tyreWidthMeters` : 'traffic.tyreWidthMeters',
      `${tyre} m tyres (+ ${margin} m margin) are as wide as the ${gauge} m gauge of ${p} or wider: ` +
        `tyres of at most ${round3(gauge - margin - 0.01)} m fit`,
    );
  const name = typeof op.name === 'string' && op.name.length > 0 ? op.name : `${kind} ${i + 1}`;
  return {
    index: i,
    name,
    kind,
    widthMeters,
    gaugeMeters: gauge,
    tyreWidthMeters: tyre,
    machine: machine as unknown as MachineInput,
    ...(op.routeOptions !== undefined ? { routeOptions: op.routeOptions as RouteApiOptions } : {}),
  };
}

function readOptions(t: Record<string, unknown>): Omit<ResolvedTraffic, 'operations' | 'baseWidthMeters'> {
  const margin = t.tyreMarginMeters;
  if (margin !== undefined && (typeof margin !== 'number' || !Number.isFinite(margin) || margin < 0))
    fail('traffic.tyreMarginMeters', 'must be a number of meters, 0 or more');
  if (t.firstPass !== undefined && t.firstPass !== 'full' && t.firstPass !== 'half')
    fail('traffic.firstPass', 'must be "full" or "half"');
  const row = t.rowSpacingMeters !== undefined ? positive(t.rowSpacingMeters, 'traffic.rowSpacingMeters') : undefined;
  for (const k of ['compareIndependent', 'includeTurns'])
    if (t[k] !== undefined && typeof t[k] !== 'boolean') fail(`traffic.${k}`, 'must be a boolean');
  const referenceLine = readReferenceLine(t.referenceLine);
  return {
    tyreMarginMeters: (margin as number | undefined) ?? DEFAULT_TYRE_MARGIN_METERS,
    firstPass: t.firstPass === 'half' ? 'half' : 'full',
    ...(row !== undefined ? { rowSpacingMeters: row } : {}),
    ...(referenceLine ? { referenceLine } : {}),
    compareIndependent: t.compareIndependent !== false,
    includeTurns: t.includeTurns === true,
  };
}

/** The request's `traffic` and `operations`, checked; widths as multiples of the base width. */
export function validateTraffic(request: TrafficSystemRequest): ResolvedTraffic {
  const t = request.traffic as unknown;
  if (typeof t !== 'object' || t === null || Array.isArray(t))
    fail('traffic', 'must be an object { gaugeMeters, tyreWidthMeters, ... }');
  const traffic = t as Record<string, unknown>;
  const ops = request.operations as unknown;
  if (!Array.isArray(ops) || ops.length === 0 || ops.length > MAX_OPERATIONS)
    fail('operations', `must be an array of 1 to ${MAX_OPERATIONS} operations`);
  const options = readOptions(traffic);
  const read = ops.map((o, i) => readOperation(o, i, traffic));
  const drills = read.filter((o) => o.kind === 'drill');
  if (drills.length > 1) fail(`operations[${drills[1].index}].kind`, 'a system has one drill (the base width)');
  const drill = drills[0]?.index;
  const sprayer = read.find((o) => o.kind === 'sprayer')?.index;
  const baseWidthMeters = read[drill ?? 0].widthMeters;
  const operations = read.map((o) => {
    const multiple = Math.round(o.widthMeters / baseWidthMeters);
    if (multiple < 1 || Math.abs(o.widthMeters - multiple * baseWidthMeters) > WIDTH_TOLERANCE_METERS) {
      const role = o.kind === 'sprayer' ? 'sprayer' : 'machine';
      misfit(
        `operations[${o.index}].machine.widthMeters`,
        `the ${o.widthMeters} m ${role} is not a whole multiple of the ${baseWidthMeters} m base width` +
          `${drill !== undefined ? " (the drill's)" : ''}: nearest widths that fit: ` +
          `${nearestMultiples(o.widthMeters, baseWidthMeters).join(' or ')} m`,
      );
    }
    return { ...o, multiple };
  });
  return {
    operations,
    baseWidthMeters,
    ...(drill !== undefined ? { drill } : {}),
    ...(sprayer !== undefined ? { sprayer } : {}),
    ...options,
  };
}
