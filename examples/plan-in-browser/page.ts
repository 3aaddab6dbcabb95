/**
 * The browser example's page: plans field.geojson with `planRouteAsync` in a Web Worker, lists the
 * stages as the worker reports them, and keeps a 50 ms clock ticking to show the page never
 * freezes. The timing of each plan (ticks seen, longest gap between ticks) is left on `#result`'s
 * data attributes for the browser test.
 */
import { planRouteAsync } from '@furrow/worker/browser';
import type { FieldGeometry, PlanProgress } from '@furrow/core';

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const result = $<HTMLParagraphElement>('result');
const stages = $<HTMLOListElement>('stages');

let ticks = 0;
let lastTick = performance.now();
let longestGapMs = 0;
setInterval(() => {
  const t = performance.now();
  longestGapMs = Math.max(longestGapMs, t - lastTick);
  lastTick = t;
  $<HTMLOutputElement>('ticks').value = String(++ticks);
}, 50);

let controller: AbortController | undefined;

function showStage(p: PlanProgress): void {
  for (const li of stages.querySelectorAll('li.now')) li.className = 'done';
  const li = document.createElement('li');
  li.className = 'now';
  li.textContent = `${p.planning > 1 ? `planning ${p.planning}: ` : ''}${p.stage} (${p.stageIndex + 1}/${p.stageCount})`;
  stages.append(li);
}

async function plan(): Promise<void> {
  const field = ((await (await fetch('./field.geojson')).json()) as { geometry: FieldGeometry }).geometry;
  controller = new AbortController();
  stages.replaceChildren();
  $<HTMLButtonElement>('cancel').disabled = false;
  result.dataset.state = 'planning';
  result.textContent = 'Planning…';
  const ticksBefore = ticks;
  longestGapMs = 0;
  lastTick = performance.now();
  const t0 = performance.now();
  try {
    const p = await planRouteAsync(
      { field, machine: { widthMeters: Number($<HTMLInputElement>('width').value), turnRadiusMeters: 6 } },
      { signal: controller.signal, onProgress: showStage, workerUrl: new URL('./worker.js', import.meta.url) },
    );
    const m = p.metrics;
    result.textContent = `${p.route.length} route segments, ${(m.distanceMeters / 1000).toFixed(1)} km, ${(100 * m.uncoveredRatio).toFixed(2)} % unworked.`;
    result.dataset.state = 'planned';
  } catch (e) {
    result.textContent = (e as Error).name === 'AbortError' ? 'Cancelled.' : `Failed: ${(e as Error).message}`;
    result.dataset.state = (e as Error).name === 'AbortError' ? 'cancelled' : 'failed';
  } finally {
    $<HTMLButtonElement>('cancel').disabled = true;
    result.dataset.planMs = String(Math.round(performance.now() - t0));
    result.dataset.ticks = String(ticks - ticksBefore);
    result.dataset.longestGapMs = String(Math.round(longestGapMs));
  }
}

$<HTMLButtonElement>('plan').addEventListener('click', () => void plan());
$<HTMLButtonElement>('cancel').addEventListener('click', () => controller?.abort());
