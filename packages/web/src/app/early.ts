/**
 * Entry of `early-<hash>.js`, the one script index.html runs: the launch's head start
 * (head-start.ts), then the app's bundle. index.html only preloads the bundle (fetched and
 * compiled meanwhile); on a launch it is run once the exchange has answered and the field's
 * first plan is in (at most 300 ms after it was asked for, 800 ms after the start:
 * `HeadStart.ready`). Running it holds the page's thread for a few hundred milliseconds: the
 * exchange's answer could not send the plan request meanwhile, and a plan that comes while the
 * page draws its first frame is drawn in a second one. Any other page runs it at once.
 */
import { startHeadStart } from './head-start.js';

const start = startHeadStart(location, history);
window.furrowHeadStart = start;

const bundle = document.querySelector<HTMLLinkElement>('link[data-furrow-app]')?.href;
if (bundle) {
  const run = (): Promise<unknown> => import(bundle);
  void (start?.ready ?? Promise.resolve()).then(run).catch((err: unknown) => {
    console.error(err);
    const root = document.getElementById('root') ?? document.body;
    root.textContent = 'The furrow planner could not be loaded. Please reload the page.';
  });
}
