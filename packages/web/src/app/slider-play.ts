/**
 * Play on a time slider, shared by the plan's playback and the fleet view: the slider runs from 0 to
 * SLIDER_STEPS, Play moves it through the whole range in about a minute (one step per animation frame, by the
 * time elapsed), and the button reads Pause while it plays.
 */
export const SLIDER_STEPS = 1000;
import { h } from './dom.js';

/** Real seconds a full play-through takes. */
const PLAY_THROUGH_SECONDS = 60;

/** How a time slider is named on the page: its element id (`<id>-slider`, `<id>-clock`, `<id>-play` test ids). */
export interface SliderNames {
  id: string;
  label: string;
  disabled?: boolean;
}

export class SliderPlay {
  readonly slider: HTMLInputElement;
  readonly button: HTMLButtonElement;
  /** The clock beside the slider (its text is the owner's). */
  readonly clock: HTMLOutputElement;
  private frame = 0;
  private lastTickMs = 0;

  /**
   * `update`: called after each move of the slider; `canPlay`: whether there is anything to play. Moving the slider
   * by hand stops play.
   */
  constructor(
    names: SliderNames,
    private readonly update: () => void,
    private readonly canPlay: () => boolean,
  ) {
    const disabled = names.disabled ? { disabled: true } : {};
    this.slider = h('input', {
      type: 'range',
      min: 0,
      max: SLIDER_STEPS,
      value: 0,
      step: 'any',
      id: `${names.id}-slider`,
      'aria-label': names.label,
      'data-testid': `${names.id}-slider`,
      ...disabled,
    });
    this.clock = h('output', {
      class: 'playback-clock',
      for: `${names.id}-slider`,
      'data-testid': `${names.id}-clock`,
    });
    this.button = h(
      'button',
      { type: 'button', class: 'button secondary play', 'data-testid': `${names.id}-play`, ...disabled },
      'Play',
    );
    this.button.addEventListener('click', () => (this.playing ? this.stop() : this.play()));
    this.slider.addEventListener('input', () => {
      this.stop();
      this.update();
    });
  }

  get playing(): boolean {
    return this.frame !== 0;
  }

  play(): void {
    if (this.frame || !this.canPlay()) return;
    if (Number(this.slider.value) >= SLIDER_STEPS) this.slider.value = '0';
    this.button.textContent = 'Pause';
    this.lastTickMs = performance.now();
    const tick = (nowMs: number): void => {
      const advance = ((nowMs - this.lastTickMs) / 1000 / PLAY_THROUGH_SECONDS) * SLIDER_STEPS;
      this.lastTickMs = nowMs;
      const next = Math.min(SLIDER_STEPS, Number(this.slider.value) + Math.max(advance, 0));
      this.slider.value = String(next);
      this.update();
      if (next >= SLIDER_STEPS) this.stop();
      else this.frame = requestAnimationFrame(tick);
    };
    this.frame = requestAnimationFrame(tick);
  }

  stop(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.button.textContent = 'Play';
  }
}
