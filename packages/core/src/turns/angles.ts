/** Angle helpers, radians. */

export const TWO_PI = 2 * Math.PI;

/** Angle folded into [0, 2π). */
export function mod2pi(angleRadians: number): number {
  let a = angleRadians % TWO_PI;
  if (a < 0) a += TWO_PI;
  // -1e-18 % 2π + 2π rounds to exactly 2π.
  return a >= TWO_PI ? 0 : a;
}

/** Angle folded into (-π, π]. */
export function wrapPi(angleRadians: number): number {
  let a = mod2pi(angleRadians);
  if (a > Math.PI) a -= TWO_PI;
  return a;
}
