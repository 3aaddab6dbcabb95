/**
 * Shared set-up of the property tests on turns (not built: packages/core's tsconfig leaves
 * `__fixtures__` out): the arbitraries of one turn between two poses.
 */
import fc from 'fast-check';

/** A pose in a 60 m square round the origin, any heading. */
const pose = fc.record({
  x: fc.double({ min: -30, max: 30, noNaN: true }),
  y: fc.double({ min: -30, max: 30, noNaN: true }),
  headingRadians: fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
});

/**
 * From, to, turn radius (2–12 m), curvature-rate limit (0.05–1 per m², or none), reversing
 * allowed: spread them first into `fc.property`, in this order.
 */
export const turnCase = [
  pose,
  pose,
  fc.double({ min: 2, max: 12, noNaN: true }),
  fc.option(fc.double({ min: 0.05, max: 1, noNaN: true }), { nil: undefined }),
  fc.boolean(),
] as const;
