/**
 * Playback: a slider that moves the machine along the route, with the clock (time from the start
 * and the plan's total) and what the machine is driving. Play runs the whole route in about a
 * minute; the slider and its arrow keys step by hand.
 */
import { SLIDER_STEPS, SliderPlay } from './slider-play.js';
import { h } from './dom.js';
import type { Feature } from './geo.js';
import type { MapView } from './map.js';
import type { Timeline } from './route.js';
import { buildTimeline, clockText, positionAt } from './route.js';

const PIECE_WORDS: Record<string, string> = {
  Track: 'Working a track',
  ExteriorHeadland: 'Working a headland pass',
  InteriorHeadland: 'Working round an obstacle',
  Turn: 'Turning',
  Connector: 'Driving to the next pass',
};

export class Playback {
  readonly element: HTMLElement;
  private readonly doing: HTMLElement;
  private timeline?: Timeline;
  private route: readonly Feature[] = [];
  private readonly player: SliderPlay;

  constructor(private readonly map: MapView) {
    this.player = new SliderPlay(
      { id: 'playback', label: 'Position along the route', disabled: true },
      () => this.update(),
      () => this.timeline !== undefined,
    );
    this.doing = h('span', { class: 'playback-doing', 'data-testid': 'playback-doing' });
    this.element = h(
      'div',
      { class: 'playback', 'data-testid': 'playback', role: 'group', 'aria-label': 'Playback' },
      this.player.button,
      this.player.slider,
      this.player.clock,
      this.doing,
    );
    this.update();
  }

  /** A new route: the clock restarts at 0 (scaled to the plan's time when it states one). */
  setRoute(route: readonly Feature[], metrics: Record<string, unknown> | undefined): void {
    this.stop();
    this.route = route;
    const t = metrics?.['timeSeconds'];
    this.timeline = buildTimeline(route, undefined, typeof t === 'number' ? t : undefined);
    const usable = this.timeline.positions.length > 1;
    this.player.slider.disabled = !usable;
    this.player.button.disabled = !usable;
    this.player.slider.value = '0';
    this.update();
  }

  private seconds(): number {
    return ((this.timeline?.totalSeconds ?? 0) * Number(this.player.slider.value)) / SLIDER_STEPS;
  }

  private update(): void {
    const tl = this.timeline;
    const s = this.seconds();
    this.player.clock.textContent = tl ? `${clockText(s)} / ${clockText(tl.totalSeconds)}` : '–';
    this.player.slider.setAttribute(
      'aria-valuetext',
      tl ? `${clockText(s)} of ${clockText(tl.totalSeconds)}` : 'no route',
    );
    const at = tl ? positionAt(tl, s) : undefined;
    const type = at ? this.route[at.pieceIndex]?.properties?.['type'] : undefined;
    this.doing.textContent = typeof type === 'string' ? (PIECE_WORDS[type] ?? type) : '';
    this.map.showMachineAt(Number(this.player.slider.value) > 0 ? tl : undefined, s);
  }

  play(): void {
    this.player.play();
  }

  stop(): void {
    this.player.stop();
  }
}
