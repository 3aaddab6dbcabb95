/**
 * The choice between a call's variants: the least objective (objective.ts), a tie to the variant
 * listed first. A variant whose route alone (its objective with nothing unworked, a lower bound)
 * cannot beat the best measured so far is never measured.
 */
import { beats, TIE_SECONDS } from '../objective.js';
import type { RoutedVariant } from './routedVariant.js';
import { isRouted, type PlannedVariant } from './planVariant.js';
import type { VariantReport } from './variant.js';

/** The best of `candidates` (in the order listed). */
export function bestOf(candidates: readonly RoutedVariant[]): RoutedVariant {
  const byBound = candidates
    .map((_, i) => i)
    .sort((a, b) => candidates[a].routeSeconds - candidates[b].routeSeconds || a - b);
  let best = -1,
    bestSeconds = Infinity;
  for (const i of byBound) {
    const c = candidates[i];
    if (best >= 0 && c.routeSeconds > bestSeconds + TIE_SECONDS) break; // nor any after it
    if (best >= 0 && i > best && !beats(c.routeSeconds, bestSeconds)) continue; // at best a tie, lost
    const seconds = c.objective().seconds;
    if (best < 0 || beats(seconds, bestSeconds) || (!beats(bestSeconds, seconds) && i < best)) {
      best = i;
      bestSeconds = seconds;
    }
  }
  return candidates[best];
}

/** What the plan reports of every variant tried (`plan.choice.variants`), in the order tried. */
export function variantReports(tried: readonly PlannedVariant[], kept: RoutedVariant): VariantReport[] {
  return tried.map((p) => {
    const { headlandPasses, strips, cellHeadings, centreLines, why } = p.variant;
    const base = { headlandPasses, strips, cellHeadings, centreLines, why };
    if (!isRouted(p)) return { ...base, status: 'replaced' };
    if (!p.measured()) return { ...base, status: 'bound', objectiveSeconds: round2(p.routeSeconds) };
    const o = p.objective();
    const parts = Object.fromEntries(Object.entries(o.parts).map(([k, v]) => [k, round2(v)]));
    return { ...base, status: p === kept ? 'kept' : 'planned', objectiveSeconds: round2(o.seconds), parts };
  });
}

function round2(v: number): number {
  return Math.round(v * 100) / 100;
}
