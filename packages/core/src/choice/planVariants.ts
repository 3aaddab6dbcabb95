/**
 * The call's variants, listed as data and each planned through the same pipeline
 * (choice/planVariant.ts), the best kept by the objective (choice/choose.ts):
 *
 * 1. the request as asked — or, where its tracks show the forward turns need a deeper exterior
 *    headland (tracks/widenHeadland.ts), the passes they need; halfway between, where that plan
 *    leaves headland passes out; the passes asked after all, for a field of few tracks or one the
 *    passes fill;
 * 2. each of those with one heading in every cell, where cells got headings of their own;
 * 3. for each count of headland passes, its best planning without strip passes, where its route's
 *    faults may come from them;
 * 4. the best planning with strip passes, its strips driven along their centre lines
 *    (tracks/centreLine.ts);
 * 5. where a bend cut a tour of that centre-line planning and the best so far leaves `LEFT_OVER_SHARE` of
 *    the field or more, the same with its tours started the other way round (the route may join the
 *    pieces on the other side of the cut);
 * 6. the best so far again, with passes over the ground its route left (its headland passes the
 *    route could not join, the ends of tracks it shortened, strips it left out), where that is at
 *    least `LEFT_OVER_SHARE` of the field;
 * 7. where the best so far leaves `LEFT_OVER_SHARE` of the field or more, the best planning whose
 *    route left out a headland pass or a track again, its headland passes driven between two of its
 *    tracks (route/passesBetween.ts: tracks that end in dead ends on both sides of them).
 *
 * Past the call's wall-clock cap the optional variants (the other headland depths of 1, and 2–7) are not planned
 * (`time-limit`). A planning of part of the tracks (`trackSubset`: a fleet's machine) plans no 5–7: the ground it
 * leaves is other machines' work.
 */
import { isPlanError } from '../errors.js';
import { patchThreshold, type UnworkedPatch } from '../geometry/unworked.js';
import type { SharedWork } from '../sharedWork.js';
import type { TurnHeadland } from '../tracks/widenHeadland.js';
import type { StripMode } from '../tracks/planTracks.js';
import { askedWork, createPlanCache, workFor, type PlanCache } from './cache.js';
import { memoFor } from './fieldMemo.js';
import { isRouted, planVariant, type Call, type PlannedVariant } from './planVariant.js';
import type { RoutedVariant } from './routedVariant.js';
import { bestOf } from './choose.js';
import { MAX_PASSES_BETWEEN_SPLITS } from '../route/passesBetween.js';
import type { Variant } from './variant.js';

export interface Chosen {
  kept: RoutedVariant;
  /** Every variant tried, in order. */
  tried: PlannedVariant[];
  /** The ordering time the call reports: the kept variant's and its sibling's with the other cell headings. */
  orderingMilliseconds?: number;
}

/** The ground the best planning leaves gets passes of its own from this share of the field. */
export const LEFT_OVER_SHARE = 0.03;

/** Plans the call's variants (each with `planOne`: the pipeline, or a test's stand-in) and keeps the best. */
export function planVariants(call: Call, planOne: typeof planVariant = planVariant): Chosen {
  const cache = createPlanCache(call.settings.headlandPasses);
  const memo = memoFor(call.fieldMemo, call.settings);
  if (memo?.prepared) Object.assign(askedWork(cache), { prepared: memo.prepared, simple: memo.simple });
  const tried: PlannedVariant[] = [];
  const plan = (v: Variant, work: SharedWork): PlannedVariant => {
    const p = planOne(call, v, work, tried.length + 1);
    tried.push(p);
    return p;
  };
  const asked: Variant = {
    headlandPasses: call.settings.headlandPasses,
    strips: 'all',
    cellHeadings: true,
    centreLines: false,
    why: 'asked',
    orderingSpentMilliseconds: 0,
  };
  const first = planFirst(asked, askedWork(cache), plan);
  // (a caller may have given the prepared field alone, as planFleet does: the simplified boundary is kept too)
  if (memo && (!memo.prepared || !memo.simple))
    Object.assign(memo, { prepared: askedWork(cache).prepared, simple: askedWork(cache).simple });
  const headlandRound = isRouted(first)
    ? withOneHeading(call, first, askedWork(cache), plan)
    : headlandVariants(call, cache, first.replacedBy, plan);
  const all = [...headlandRound];
  // per headland-pass count, its best planning without strip passes where their faults may be its
  for (const passes of new Set(headlandRound.map((p) => p.variant.headlandPasses))) {
    const best = bestOf(headlandRound.filter((p) => p.variant.headlandPasses === passes));
    if (best.stripsFaulted) all.push(...withoutStrips(call, cache, best, plan));
  }
  const withStrips = all.filter((p) => p.stripPasses > 0);
  if (withStrips.length > 0) all.push(...withCentreLines(call, cache, bestOf(withStrips), plan));
  // A planning of part of the tracks leaves the rest to other machines: no passes for the ground left.
  if (!call.trackSubset) {
    all.push(...withToursTurned(call, cache, all, plan));
    all.push(...withLeftOver(call, cache, bestOf(all), plan));
    all.push(...withPassesBetween(call, cache, all, plan));
  }
  const kept = bestOf(all);
  const sibling = all.find((p) => p !== kept && samePlanning(p.variant, kept.variant));
  const ms = [kept, sibling].map((p) => p?.orderingMilliseconds).filter((v): v is number => v !== undefined);
  return { kept, tried, ...(ms.length > 0 ? { orderingMilliseconds: ms.reduce((a, b) => a + b, 0) } : {}) };
}

type PlanOne = (v: Variant, work: SharedWork) => PlannedVariant;

/**
 * The request as asked; where nothing of it fits (no track, headland pass or straight strip pass:
 * a bent strip narrower than the machine), the same with its strips along their centre line.
 */
function planFirst(asked: Variant, work: SharedWork, plan: (v: Variant, work: SharedWork) => PlannedVariant) {
  try {
    return plan(asked, work);
  } catch (e) {
    if (!isPlanError(e) || e.code !== 'no-workable-area') throw e;
    try {
      return plan({ ...asked, centreLines: true, why: 'centre-lines' }, work);
    } catch {
      throw e;
    }
  }
}

/** Same passes and strips (the two cell-heading variants of one planning). */
function samePlanning(a: Variant, b: Variant): boolean {
  return a.headlandPasses === b.headlandPasses && a.strips === b.strips;
}

/** A routed variant and, where its cells got headings of their own, the same with one heading. */
function withOneHeading(call: Call, p: RoutedVariant, work: SharedWork, plan: PlanOne): RoutedVariant[] {
  if (!p.ownCellHeadings) return [p];
  if (call.cap?.over()) {
    call.cap.secondSkipped = true;
    return [p];
  }
  const v: Variant = {
    ...p.variant,
    cellHeadings: false,
    why: 'one-heading',
    orderingSpentMilliseconds: p.orderingMilliseconds ?? 0,
  };
  return [p, plan(v, work) as RoutedVariant];
}

/** The headlands the turns need (`t`), halfway, and the passes asked where that may be better. */
function headlandVariants(call: Call, cache: PlanCache, t: TurnHeadland, plan: PlanOne): RoutedVariant[] {
  const variant = (headlandPasses: number, why: Variant['why']): Variant => ({
    headlandPasses,
    strips: 'all',
    cellHeadings: true,
    centreLines: false,
    why,
    orderingSpentMilliseconds: 0,
  });
  const planWith = (passes: number, why: Variant['why'], work: SharedWork): RoutedVariant[] =>
    withOneHeading(call, plan(variant(passes, why), work) as RoutedVariant, work, plan);
  const out = planWith(t.passes, 'turns-need', workFor(cache, t.passes, t));
  const halfway = Math.floor((t.asked + t.passes) / 2);
  const skipsPasses = out.some((p) => p.routeWarnings.some((w) => w.code === 'headland-pass-skipped'));
  const wanted = (halfway > t.asked && skipsPasses) || t.fewTracks || t.roundOnly;
  // past the call's wall-clock cap the other headland depths are not weighed (said in the `time-limit` warning)
  if (wanted && call.cap?.over()) {
    call.cap.headlandsSkipped = true;
    return out;
  }
  if (halfway > t.asked && skipsPasses) {
    out.push(...planWith(halfway, 'halfway', workFor(cache, halfway, { ...t, planned: halfway, roundOnly: false })));
  }
  if (t.fewTracks || t.roundOnly) {
    const work = askedWork(cache);
    work.turnHeadland = { ...t, widened: false };
    out.push(...planWith(t.asked, 'passes-asked', work));
  }
  return out;
}

/** The best planning with its strips driven along their centre lines, where it has strip passes. */
function withCentreLines(call: Call, cache: PlanCache, best: RoutedVariant, plan: PlanOne): RoutedVariant[] {
  if (best.stripPasses === 0 || best.variant.centreLines) return [];
  if (call.cap?.over()) return [];
  const work = cache.byPasses.get(best.variant.headlandPasses)!;
  const v: Variant = { ...best.variant, centreLines: true, why: 'centre-lines', orderingSpentMilliseconds: 0 };
  return [plan(v, work) as RoutedVariant];
}

/**
 * The centre-line planning again, its tours started the other way round, where a bend cut one of
 * them into pieces that could start the other way (`Track.tourTurnable`) and the best planning so far
 * leaves `LEFT_OVER_SHARE` of the field or more: which pieces the route can join depends on the way
 * the tour goes (a ring round a hole whose tip is too tight for R: the side driven first is a dead end).
 */
function withToursTurned(call: Call, cache: PlanCache, all: RoutedVariant[], plan: PlanOne): RoutedVariant[] {
  if (call.cap?.over()) return [];
  const centre = all.find((p) => p.variant.why === 'centre-lines');
  if (!centre || !centre.strips().some((t) => t.tourTurnable)) return [];
  if (!groundLeft(cache, bestOf(all))) return [];
  const v: Variant = { ...centre.variant, toursTurned: true, why: 'tours-turned', orderingSpentMilliseconds: 0 };
  return [plan(v, cache.byPasses.get(centre.variant.headlandPasses)!) as RoutedVariant];
}

/**
 * Where the best planning leaves `LEFT_OVER_SHARE` of the field or more: the best of those whose
 * route left out a headland pass or a track (a dead end it could not leave or enter) again, its
 * headland passes driven between two of its tracks. The route connects its order once per split (at
 * most MAX_PASSES_BETWEEN_ROUTES routes), so only a route of at most MAX_PASSES_BETWEEN_SPLITS + 1
 * tracks.
 */
function withPassesBetween(call: Call, cache: PlanCache, all: RoutedVariant[], plan: PlanOne): RoutedVariant[] {
  if (call.cap?.over()) return [];
  const candidates = all.filter(
    (p) =>
      !p.variant.passesBetween &&
      p.trackCount >= 2 &&
      p.trackCount <= MAX_PASSES_BETWEEN_SPLITS + 1 &&
      p.routeWarnings.some(
        (w) => w.code === 'track-skipped' || (w.code === 'headland-pass-skipped' && w.headlandIndex !== undefined),
      ),
  );
  if (candidates.length === 0 || call.settings.routeOptions.headlandsFirst) return [];
  if (!groundLeft(cache, bestOf(all))) return [];
  const base = bestOf(candidates);
  const v: Variant = { ...base.variant, passesBetween: true, why: 'passes-between', orderingSpentMilliseconds: 0 };
  return [plan(v, cache.byPasses.get(base.variant.headlandPasses)!) as RoutedVariant];
}

/**
 * The patches (of at least the patch threshold) `best`'s route leaves, where they are `LEFT_OVER_SHARE` of
 * the field or more.
 */
function groundLeft(cache: PlanCache, best: RoutedVariant): UnworkedPatch[] | undefined {
  const fieldArea = cache.byPasses.get(best.variant.headlandPasses)!.prepared?.fieldAreaSquareMeters;
  if (fieldArea === undefined) return undefined;
  const patches = best.leftOver(patchThreshold(fieldArea));
  return patches.reduce((a, p) => a + p.areaSquareMeters, 0) >= LEFT_OVER_SHARE * fieldArea ? patches : undefined;
}

/**
 * The best planning again, its strip passes kept and each piece of ground its route left (of at
 * least the patch threshold) given passes of its own, where those pieces are `LEFT_OVER_SHARE` of
 * the field or more.
 */
function withLeftOver(call: Call, cache: PlanCache, best: RoutedVariant, plan: PlanOne): RoutedVariant[] {
  if (best.variant.leftOver || call.cap?.over()) return [];
  const patches = groundLeft(cache, best);
  if (!patches) return [];
  const work = cache.byPasses.get(best.variant.headlandPasses)!;
  const leftOver = { strips: best.strips(), patches: patches.map((p) => p.rings) };
  // the passes its route left out are not tried again: their ground is in the patches
  const withoutPasses = best.routeWarnings
    .filter((w) => w.code === 'headland-pass-skipped' && w.headlandIndex !== undefined)
    .map((w) => w.headlandIndex!);
  const v: Variant = {
    ...best.variant,
    strips: 'all',
    centreLines: true,
    leftOver,
    ...(withoutPasses.length > 0 ? { withoutPasses } : {}),
    why: 'left-over',
    orderingSpentMilliseconds: 0,
  };
  return [plan(v, work) as RoutedVariant];
}

/** The best planning again without strip passes (one pass per strip where nothing else is left). */
function withoutStrips(call: Call, cache: PlanCache, best: RoutedVariant, plan: PlanOne): RoutedVariant[] {
  if (call.cap?.over()) {
    call.cap.stripsSkipped = true;
    return [];
  }
  const work = cache.byPasses.get(best.variant.headlandPasses)!;
  const planStrips = (strips: StripMode): RoutedVariant[] => {
    const v: Variant = { ...best.variant, strips, cellHeadings: true, why: 'no-strips', orderingSpentMilliseconds: 0 };
    return withOneHeading(call, plan(v, work) as RoutedVariant, work, plan);
  };
  try {
    return planStrips('none');
  } catch (e) {
    // a field narrower than the machine has nothing to drive without them: one pass per strip then
    if (!isPlanError(e) || e.code !== 'no-workable-area') throw e;
  }
  try {
    return planStrips('single');
  } catch (e) {
    // nor one pass through the largest strip: the planning with strip passes stands alone
    if (isPlanError(e) && e.code === 'no-workable-area') return [];
    throw e;
  }
}
