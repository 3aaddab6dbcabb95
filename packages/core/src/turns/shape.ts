/**
 * The turn shape of a machine: minimum radius R and curvature-rate limit σ give the
 * "CC circle" of Fraichard & Scheuer (2004): a turn of deflection δ ≥ δmin = κ²/σ made of a
 * clothoid (0 → κ), an arc of radius R and a clothoid (κ → 0). Its start and end poses lie on
 * a circle of radius r around the arc centre, with the heading at an angle μ to that circle's
 * tangent (inward at the start, outward at the end). With σ = ∞ the clothoids vanish, μ = 0,
 * r = R and this is the plain circle of Dubins paths.
 */

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
  const n = Math.max(16, Math.ceil(lengthMeters / 0.1));
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

/** Shape for radius R (m) and curvature-rate limit σ (1/m², Infinity = none). Cached for the last key. */
export function turnShape(radiusMeters: number, curvatureRatePerSquareMeter = Infinity): TurnShape {
  if (cacheShape && cacheKeyR === radiusMeters && cacheKeyS === curvatureRatePerSquareMeter) return cacheShape;
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
      outerRadiusMeters: R,
      muRadians: 0,
      innerRadiusMeters: R,
      tangentOffsetMeters: 0,
    };
  } else {
    const L = kappa / sigma;
    const th = (kappa * L) / 2;
    const [xe, ye] = clothoidEnd(L, sigma);
    const cx = xe - R * Math.sin(th);
    const cy = ye + R * Math.cos(th);
    const r = Math.hypot(cx, cy);
    const mu = Math.atan2(cx, cy);
    shape = {
      radiusMeters: R,
      curvaturePerMeter: kappa,
      curvatureRatePerSquareMeter: sigma,
      clothoidLengthMeters: L,
      clothoidDeflectionRadians: th,
      minDeflectionRadians: 2 * th,
      centerForwardMeters: cx,
      centerLeftMeters: cy,
      outerRadiusMeters: r,
      muRadians: mu,
      innerRadiusMeters: r * Math.cos(mu),
      tangentOffsetMeters: r * Math.sin(mu),
    };
  }
  cacheKeyR = radiusMeters;
  cacheKeyS = curvatureRatePerSquareMeter;
  cacheShape = shape;
  return shape;
}

/** Length of a turn of deflection δ (radians) with this shape; NaN when δ is below the minimum. */
export function turnLengthMeters(shape: TurnShape, deflectionRadians: number): number {
  if (deflectionRadians < shape.minDeflectionRadians - 1e-12) return NaN;
  const arc = Math.max(0, deflectionRadians - shape.minDeflectionRadians) * shape.radiusMeters;
  return 2 * shape.clothoidLengthMeters + arc;
}

/**
 * Forward (along the start heading) and left displacement of a left CC turn of deflection δ.
 * The end pose is the start pose mirrored about the bisector through the centre.
 */
export function turnDisplacement(shape: TurnShape, deflectionRadians: number): [number, number] {
  // Start heading = tangent + μ, end heading = tangent − μ: the position angle about the
  // centre sweeps δ + 2μ while the heading turns by δ.
  const cx = shape.centerForwardMeters;
  const cy = shape.centerLeftMeters;
  const r = shape.outerRadiusMeters;
  const a = Math.atan2(-cy, -cx) + deflectionRadians + 2 * shape.muRadians;
  return [cx + r * Math.cos(a), cy + r * Math.sin(a)];
}
