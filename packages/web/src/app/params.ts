/**
 * The planning form's parameters and the path-plan request (shape A, docs/api.md "Requests")
 * they become. Validation happens here too, so the form can name the bad field before
 * anything is sent.
 */
import type { Geometry, Position } from './geo.js';

export type RouteOrder = 'optimized' | 'boustrophedon' | 'snake' | 'spiral' | 'clusteredSpiral';

export interface PlanParameters {
  widthMeters: number;
  headlandPasses: number;
  /** undefined: let the planner search the best heading. */
  headingDegrees?: number;
  order: RouteOrder;
  turnRadiusMeters: number;
  useCrossHatches: boolean;
  excludePassable: boolean;
  extendTracks: boolean;
  headlandsFirst: boolean;
  calculateRefillPoints: boolean;
  enableHeadlandDrivethrough: boolean;
  /** Tank or hopper capacity (liters or kilograms); required with refill points. */
  tankCapacity?: number;
  /** Application rate per hectare, in the tank's unit; required with refill points. */
  applicationRatePerHectare?: number;
  /** The machine may reverse in turns (fishtail, K-turns). */
  reverseAllowed: boolean;
  /** Speeds (undefined: the planner's defaults, 9 / 5.4 / 14.4 km/h). */
  workingSpeedKilometersPerHour?: number;
  turningSpeedKilometersPerHour?: number;
  roadSpeedKilometersPerHour?: number;
  /** Sections of the boom switched on and off (undefined: any width). */
  sections?: number;
}

/** The speed inputs: form name, label, and the request's machine member (m/s). */
export const SPEED_FIELDS = [
  { name: 'workingSpeedKilometersPerHour', label: 'Working speed (km/h)', member: 'workingSpeedMetersPerSecond' },
  { name: 'turningSpeedKilometersPerHour', label: 'Turning speed (km/h)', member: 'turningSpeedMetersPerSecond' },
  { name: 'roadSpeedKilometersPerHour', label: 'Road speed (km/h)', member: 'transportSpeedMetersPerSecond' },
] as const;

export const DEFAULT_PARAMETERS: PlanParameters = {
  widthMeters: 6,
  headlandPasses: 2,
  order: 'optimized',
  turnRadiusMeters: 6,
  useCrossHatches: false,
  excludePassable: false,
  extendTracks: false,
  headlandsFirst: false,
  calculateRefillPoints: false,
  enableHeadlandDrivethrough: false,
  reverseAllowed: false,
};

export const ROUTE_ORDERS: readonly { id: RouteOrder; label: string }[] = [
  { id: 'optimized', label: 'Optimized' },
  { id: 'boustrophedon', label: 'Back and forth' },
  { id: 'snake', label: 'Snake (skip tracks)' },
  { id: 'spiral', label: 'Spiral' },
  { id: 'clusteredSpiral', label: 'Clustered spiral' },
];

export interface ParameterError {
  field: keyof PlanParameters;
  message: string;
}

type Raw = Record<string, string | boolean | undefined>;

function number(raw: Raw, key: string): number | undefined {
  const v = raw[key];
  if (typeof v !== 'string' || v.trim() === '') return undefined;
  const n = Number(v.trim().replace(',', '.'));
  return Number.isFinite(n) ? n : NaN;
}

/** Parses the form's raw values (strings from inputs, booleans from checkboxes). */
export function parseParameters(raw: Raw): { params?: PlanParameters; errors: ParameterError[] } {
  const errors: ParameterError[] = [];
  const width = number(raw, 'widthMeters');
  if (width === undefined || !(width > 0) || width > 200) {
    errors.push({ field: 'widthMeters', message: 'Working width must be a number of meters above 0 (at most 200).' });
  }
  const passes = number(raw, 'headlandPasses');
  if (passes === undefined || !Number.isInteger(passes) || passes < 0 || passes > 20) {
    errors.push({ field: 'headlandPasses', message: 'Headland passes must be a whole number from 0 to 20.' });
  }
  const heading = number(raw, 'headingDegrees');
  if (heading !== undefined && (!Number.isFinite(heading) || heading < 0 || heading >= 360)) {
    errors.push({
      field: 'headingDegrees',
      message: 'Heading must be from 0 to 359 degrees, or empty for the best heading.',
    });
  }
  const radius = number(raw, 'turnRadiusMeters');
  if (radius === undefined || !(radius > 0) || radius > 100) {
    errors.push({
      field: 'turnRadiusMeters',
      message: 'Turn radius must be a number of meters above 0 (at most 100).',
    });
  }
  const order = raw['order'];
  if (typeof order !== 'string' || !ROUTE_ORDERS.some((o) => o.id === order)) {
    errors.push({ field: 'order', message: 'Choose a route order from the list.' });
  }
  const bool = (k: string) => raw[k] === true || raw[k] === 'true' || raw[k] === 'on';
  // Refill points need the capacity model (the API answers 400 without it): both positive.
  const refill = bool('calculateRefillPoints');
  const tank = number(raw, 'tankCapacity');
  if ((refill && tank === undefined) || (tank !== undefined && (!(tank > 0) || tank > 1e7))) {
    errors.push({
      field: 'tankCapacity',
      message: 'Refill points need the tank capacity: a number above 0 (liters or kg, at most 10,000,000).',
    });
  }
  const rate = number(raw, 'applicationRatePerHectare');
  if ((refill && rate === undefined) || (rate !== undefined && (!(rate > 0) || rate > 1e6))) {
    errors.push({
      field: 'applicationRatePerHectare',
      message: 'Refill points need the application rate: a number above 0 per hectare (at most 1,000,000).',
    });
  }
  const speeds: Partial<Record<(typeof SPEED_FIELDS)[number]['name'], number>> = {};
  for (const f of SPEED_FIELDS) {
    const v = number(raw, f.name);
    if (v === undefined) continue;
    if (!(v >= 0.5 && v <= 60))
      errors.push({ field: f.name, message: `${f.label.replace(' (km/h)', '')} must be 0.5 to 60 km/h, or empty.` });
    else speeds[f.name] = v;
  }
  const sections = number(raw, 'sections');
  if (sections !== undefined && !(Number.isInteger(sections) && sections >= 1 && sections <= 1000))
    errors.push({ field: 'sections', message: 'Sections must be a whole number from 1 to 1000, or empty.' });
  if (errors.length > 0) return { errors };
  return {
    errors,
    params: {
      widthMeters: width!,
      headlandPasses: passes!,
      ...(heading !== undefined ? { headingDegrees: heading } : {}),
      order: order as RouteOrder,
      turnRadiusMeters: radius!,
      useCrossHatches: bool('useCrossHatches'),
      excludePassable: bool('excludePassable'),
      extendTracks: bool('extendTracks'),
      headlandsFirst: bool('headlandsFirst'),
      calculateRefillPoints: refill,
      enableHeadlandDrivethrough: bool('enableHeadlandDrivethrough'),
      ...(tank !== undefined ? { tankCapacity: tank } : {}),
      ...(rate !== undefined ? { applicationRatePerHectare: rate } : {}),
      reverseAllowed: bool('reverseAllowed'),
      ...speeds,
      ...(sections !== undefined ? { sections } : {}),
    },
  };
}

/** What a plan of a field takes besides its polygon and no-go obstacles. */
export interface FieldExtras {
  /** Passable zones (driven over, never worked). */
  passableZones?: Geometry[];
  /** Gates, [lon, lat] each. */
  accessPoints?: Position[];
  /** The start point, [lon, lat]. */
  stagingArea?: Position;
}

/** The request's `machine` for the parameters (speeds in m/s). */
export function machineOf(p: PlanParameters): Record<string, number | boolean> {
  const machine: Record<string, number | boolean> = {
    widthMeters: p.widthMeters,
    turnRadiusMeters: p.turnRadiusMeters,
  };
  if (p.reverseAllowed) machine['reverseAllowed'] = true;
  for (const f of SPEED_FIELDS) {
    const kmh = p[f.name];
    if (kmh !== undefined) machine[f.member] = Math.round((kmh / 3.6) * 1000) / 1000;
  }
  if (p.sections !== undefined) machine['sections'] = p.sections;
  if (p.tankCapacity !== undefined) machine['tankCapacity'] = p.tankCapacity;
  if (p.applicationRatePerHectare !== undefined) machine['applicationRatePerHectare'] = p.applicationRatePerHectare;
  return machine;
}

/**
 * The path-plan request (shape A) for a boundary, its no-go obstacles, the parameters, and the
 * field's passable zones (`obstacles[]` with `passable`), gates (`accessPoints`) and start point
 * (`routeOptions.stagingArea`).
 */
export function buildPlanRequest(
  field: Geometry,
  obstacles: Geometry[],
  p: PlanParameters,
  extras: FieldExtras = {},
): Record<string, unknown> {
  const options = [
    p.useCrossHatches ? 'useCrossHatches' : '',
    p.excludePassable ? 'excludePassable' : '',
    p.extendTracks ? 'extendTracks' : '',
  ].filter((o) => o !== '');
  const routeOptions: Record<string, unknown> = { algorithm: p.order };
  if (p.headlandsFirst) routeOptions['headlandsFirst'] = true;
  if (p.calculateRefillPoints) routeOptions['calculateRefillPoints'] = true;
  if (p.enableHeadlandDrivethrough) routeOptions['enableHeadlandDrivethrough'] = true;
  if (extras.stagingArea) routeOptions['stagingArea'] = extras.stagingArea;
  const zones = [
    ...obstacles.map((geometry) => ({ geometry })),
    ...(extras.passableZones ?? []).map((geometry) => ({ geometry, passable: true })),
  ];
  return {
    field,
    machine: machineOf(p),
    headland: { passes: p.headlandPasses },
    ...(p.headingDegrees !== undefined ? { tracks: { preferredDirectionDegrees: p.headingDegrees } } : {}),
    ...(zones.length > 0 ? { obstacles: zones } : {}),
    ...(extras.accessPoints?.length ? { accessPoints: extras.accessPoints } : {}),
    ...(options.length > 0 ? { options: options.join(',') } : {}),
    routeOptions,
  };
}

/** Raw form values of parameters (inverse of parseParameters), to fill the form. */
export function parametersToRaw(p: PlanParameters): Raw {
  return {
    widthMeters: String(p.widthMeters),
    headlandPasses: String(p.headlandPasses),
    headingDegrees: p.headingDegrees === undefined ? '' : String(p.headingDegrees),
    order: p.order,
    turnRadiusMeters: String(p.turnRadiusMeters),
    useCrossHatches: p.useCrossHatches,
    excludePassable: p.excludePassable,
    extendTracks: p.extendTracks,
    headlandsFirst: p.headlandsFirst,
    calculateRefillPoints: p.calculateRefillPoints,
    enableHeadlandDrivethrough: p.enableHeadlandDrivethrough,
    tankCapacity: p.tankCapacity === undefined ? '' : String(p.tankCapacity),
    applicationRatePerHectare: p.applicationRatePerHectare === undefined ? '' : String(p.applicationRatePerHectare),
    reverseAllowed: p.reverseAllowed,
    ...Object.fromEntries(SPEED_FIELDS.map((f) => [f.name, p[f.name] === undefined ? '' : String(p[f.name])])),
    sections: p.sections === undefined ? '' : String(p.sections),
  };
}

/**
 * The form's parameters from a stored path-plan request (shape A or B, as the API keeps it
 * with a saved plan); what the request does not say keeps its default.
 */
export function parametersFromRequest(request: unknown): PlanParameters {
  const r = (typeof request === 'object' && request !== null ? request : {}) as Record<string, unknown>;
  const obj = (v: unknown): Record<string, unknown> =>
    typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};
  const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const machine = { ...obj(r['equipment']), ...obj(r['machine']) };
  const route = obj(r['routeOptions']);
  const options = typeof r['options'] === 'string' ? r['options'].split(',').map((o) => o.trim()) : [];
  const heading = num(obj(r['tracks'])['preferredDirectionDegrees']);
  const algorithm = route['algorithm'];
  const tank = num(machine['tankCapacity']);
  const rate = num(machine['applicationRatePerHectare']);
  const sections = num(machine['sections']);
  return {
    widthMeters: num(machine['widthMeters']) ?? DEFAULT_PARAMETERS.widthMeters,
    headlandPasses:
      num(obj(r['headland'])['passes']) ?? num(r['exteriorHeadlandPasses']) ?? DEFAULT_PARAMETERS.headlandPasses,
    ...(heading !== undefined ? { headingDegrees: heading } : {}),
    order: ROUTE_ORDERS.some((o) => o.id === algorithm) ? (algorithm as RouteOrder) : DEFAULT_PARAMETERS.order,
    turnRadiusMeters: num(machine['turnRadiusMeters']) ?? DEFAULT_PARAMETERS.turnRadiusMeters,
    useCrossHatches: options.includes('useCrossHatches'),
    excludePassable: options.includes('excludePassable'),
    extendTracks: options.includes('extendTracks'),
    headlandsFirst: route['headlandsFirst'] === true,
    calculateRefillPoints: route['calculateRefillPoints'] === true,
    enableHeadlandDrivethrough: route['enableHeadlandDrivethrough'] === true,
    ...(tank !== undefined ? { tankCapacity: tank } : {}),
    ...(rate !== undefined ? { applicationRatePerHectare: rate } : {}),
    reverseAllowed: machine['reverseAllowed'] === true,
    ...Object.fromEntries(
      SPEED_FIELDS.flatMap((f) => {
        const ms = num(machine[f.member]);
        return ms === undefined ? [] : [[f.name, Math.round(ms * 3.6 * 10) / 10]];
      }),
    ),
    ...(sections !== undefined ? { sections } : {}),
  };
}
