/**
 * Play on a time slider, shared by the plan's playback and the fleet view: the slider runs from 0 to
 * SLIDER_STEPS, Play moves it through the whole range in about a minute (one step per animation frame, by the
 * time elapsed), and the button reads Pause while it plays.
 */
export const SLIDER_STEPS = 1000;
/** Real seconds a full play-through takes. */
const PLAY_THROUGH_SECONDS = 60;

export class SliderPlay {
  private frame = 0;
  private lastTickMs = 0;

  constructor(
    private readonly slider: HTMLInputElement,
    private readonly button: HTMLButtonElement,
    /** Called after each move of the slider. */
    private readonly update: () => void,
  ) {}

  get playing(): boolean {
    return this.frame !== 0;
  }

  play(): void {
    if (this.frame) return;
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
