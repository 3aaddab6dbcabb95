/**
 * The turn shape of a machine: minimum radius R and curvature-rate limit σ give the
 * "CC circle" of Fraichard & Scheuer (2004): a turn of deflection δ ≥ δmin = κ²/σ made of a
 * clothoid (0 → κ), an arc of radius R and a clothoid (κ → 0). Its start and end poses lie on
 * a circle of radius r around the arc centre, with the heading at an angle μ to that circle's
 * tangent (inward at the start, outward at the end). With σ = ∞ the clothoids vanish, μ = 0,
 * r = R and this is the plain circle of Dubins paths.
 */
import { hypot } from '../geometry/vec.js';

export interface TurnShape {
  radiusMeters: number;
  /** κmax = 1/R, 1/m. */
  curvaturePerMeter: number;
  /** σ, 1/m²; Infinity for plain arcs. */
  curvatureRatePerSquareMeter: number;
  /** Length of one clothoid κ: 0 → κmax, meters (0 for plain arcs). */
  clothoidLengthMeters: number;
  /** Heading change over one clothoid, radians (κ²/2σ). */
  clothoidDeflectionRadians: number;
  /** Smallest deflection a CC turn can make (two clothoids), radians. */
  minDeflectionRadians: number;
  /** Arc centre relative to the start pose of a left turn (x forward, y left), meters. */
  centerForwardMeters: number;
  centerLeftMeters: number;
  /** End of the entry clothoid relative to the start pose (x forward, y left), meters. */
  clothoidEndForwardMeters: number;
  clothoidEndLeftMeters: number;
  /** Radius r of the circle the start and end poses lie on, meters. */
  outerRadiusMeters: number;
  /** Angle between heading and that circle's tangent at the start / end, radians. */
  muRadians: number;
  /** r·cos μ: the circle the straight pieces of CSC paths are tangent to. */
  innerRadiusMeters: number;
  /** r·sin μ: distance along a tangent line from the tangency point to the turn's end. */
  tangentOffsetMeters: number;
}

/** ∫0^L (cos, sin)(σ s²/2) ds by composite Gauss-Legendre. */
function clothoidEnd(lengthMeters: number, sigma: number): [number, number] {
  const X = [0.04691007703066802, 0.23076534494715845, 0.5, 0.7692346550528415, 0.9530899229693319];
  const W = [0.11846344252809454, 0.23931433524968324, 0.28444444444444444, 0.23931433524968324, 0.11846344252809454];
  // Panels with ≤ 0.1 rad of heading change and ≤ 0.5 m: GL5 error far below 1e-12 m per panel.
  const n = Math.max(2, Math.ceil((0.5 * sigma * lengthMeters * lengthMeters) / 0.1), Math.ceil(lengthMeters / 0.5));
  const ds = lengthMeters / n;
  let x = 0;
  let y = 0;
  for (let i = 0; i < n; i++) {
    for (let g = 0; g < 5; g++) {
      const s = (i + X[g]) * ds;
      const h = 0.5 * sigma * s * s;
      x += W[g] * Math.cos(h) * ds;
      y += W[g] * Math.sin(h) * ds;
    }
  }
  return [x, y];
}

let cacheKeyR = NaN;
let cacheKeyS = NaN;
let cacheShape: TurnShape | undefined;

const shapes = new Map<string, TurnShape>();

/**
 * Shape for radius R (m) and curvature-rate limit σ (1/m², Infinity = none). The same object
 * is returned for the same key (last key first, then a map of up to 64 keys), so memos keyed
 * by shape (field bulbs, three-point turns) survive alternating machines.
 */
export function turnShape(radiusMeters: number, curvatureRatePerSquareMeter = Infinity): TurnShape {
  if (cacheShape && cacheKeyR === radiusMeters && cacheKeyS === curvatureRatePerSquareMeter) return cacheShape;
  const key = `${radiusMeters}/${curvatureRatePerSquareMeter}`;
  const known = shapes.get(key);
  if (known) {
    cacheKeyR = radiusMeters;
    cacheKeyS = curvatureRatePerSquareMeter;
    cacheShape = known;
    return known;
  }
  const shape = makeShape(radiusMeters, curvatureRatePerSquareMeter);
  if (shapes.size >= 64) shapes.clear();
  shapes.set(key, shape);
  cacheKeyR = radiusMeters;
  cacheKeyS = curvatureRatePerSquareMeter;
  cacheShape = shape;
  return shape;
}

function makeShape(radiusMeters: number, curvatureRatePerSquareMeter: number): TurnShape {
  const R = radiusMeters;
  const kappa = 1 / R;
  const sigma = curvatureRatePerSquareMeter;
  let shape: TurnShape;
  if (!(sigma < Infinity)) {
    shape = {
      radiusMeters: R,
      curvaturePerMeter: kappa,
      curvatureRatePerSquareMeter: Infinity,
      clothoidLengthMeters: 0,
      clothoidDeflectionRadians: 0,
      minDeflectionRadians: 0,
      centerForwardMeters: 0,
      centerLeftMeters: R,
      clothoidEndForwardMeters: 0,
      clothoidEndLeftMeters: 0,
      outerRadiusMeters: R,
      muRadians: 0,
      innerRadiusMeters: R,
      tangentOffsetMeters: 0,
    };
  } else {
    const L = kappa / sigma;
    const th = (kappa * L) / 2;
    const clothoid = {
      radiusMeters: R,
      curvaturePerMeter: kappa,
      curvatureRatePerSquareMeter: sigma,
      clothoidLengthMeters: L,
      clothoidDeflectionRadians: th,
      minDeflectionRadians: 2 * th,
    };
    if (th > 4 * Math.PI) {
      // Reaching full lock would take more than two full spirals: no CC circle (every CC-Dubins
      // word is infeasible); turns are elementary clothoid pairs (field turns still exist).
      return {
        ...clothoid,
        centerForwardMeters: NaN,
        centerLeftMeters: NaN,
        clothoidEndForwardMeters: NaN,
        clothoidEndLeftMeters: NaN,
        outerRadiusMeters: NaN,
        muRadians: NaN,
        innerRadiusMeters: NaN,
        tangentOffsetMeters: NaN,
      };
    }
    const [xe, ye] = clothoidEnd(L, sigma);
    const cx = xe - R * Math.sin(th);
    const cy = ye + R * Math.cos(th);
    const r = hypot(cx, cy);
    const mu = Math.atan2(cx, cy);
    shape = {
      ...clothoid,
      centerForwardMeters: cx,
      centerLeftMeters: cy,
      clothoidEndForwardMeters: xe,
      clothoidEndLeftMeters: ye,
      outerRadiusMeters: r,
      muRadians: mu,
      innerRadiusMeters: r * Math.cos(mu),
      tangentOffsetMeters: r * Math.sin(mu),
    };
  }
  return shape;
}

/**
 * Length of a symmetric turn of deflection δ (radians) with this shape. Below the CC minimum
 * δmin = κ²/σ the turn is "elementary": two clothoids of sharpness σ peaking at κ' = √(δσ) < κ.
 */
export function turnLengthMeters(shape: TurnShape, deflectionRadians: number): number {
  const d = deflectionRadians;
  if (!(d > 0)) return 0;
  if (d < shape.minDeflectionRadians) return 2 * Math.sqrt(d / shape.curvatureRatePerSquareMeter);
  return 2 * shape.clothoidLengthMeters + (d - shape.minDeflectionRadians) * shape.radiusMeters;
}

/** Forward / left displacement of the first half of a symmetric left turn of deflection δ. */
export function halfTurnDisplacement(shape: TurnShape, deflectionRadians: number): [number, number] {
  const d = deflectionRadians;
  if (!(d > 0)) return [0, 0];
  const R = shape.radiusMeters;
  if (d < shape.minDeflectionRadians) {
    const sigma = shape.curvatureRatePerSquareMeter;
    return clothoidEnd(Math.sqrt(d / sigma), sigma);
  }
  const th = shape.clothoidDeflectionRadians;
  const x = shape.clothoidEndForwardMeters;
  const y = shape.clothoidEndLeftMeters;
  const half = d / 2;
  return [x + R * (Math.sin(half) - Math.sin(th)), y - R * (Math.cos(half) - Math.cos(th))];
}

/**
 * Forward (along the start heading) and left displacement of a symmetric left turn of
 * deflection δ: the chord makes the angle δ/2 with the start heading.
 */
export function turnDisplacement(shape: TurnShape, deflectionRadians: number): [number, number] {
  const [hx, hy] = halfTurnDisplacement(shape, deflectionRadians);
  const c = Math.cos(deflectionRadians / 2);
  const s = Math.sin(deflectionRadians / 2);
  const chord = 2 * (hx * c + hy * s);
  return [chord * c, chord * s];
}

const scratchPlain: TurnShape = makeShape(1, Infinity);

/**
 * A plain-arc shape of radius R in a reused object (no allocation, no cache): for hot
 * length-only queries. Valid until the next call; do not keep it or key memos by it.
 */
export function plainShapeScratch(radiusMeters: number): TurnShape {
  const s = scratchPlain;
  s.radiusMeters = radiusMeters;
  s.curvaturePerMeter = 1 / radiusMeters;
  s.centerLeftMeters = radiusMeters;
  s.outerRadiusMeters = radiusMeters;
  s.innerRadiusMeters = radiusMeters;
  return s;
}
