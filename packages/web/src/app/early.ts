/**
 * Entry of `early-<hash>.js`, the one script index.html runs: the launch's head start
 * (head-start.ts), then the app's bundle. index.html only preloads the bundle (fetched and
 * compiled meanwhile); it is run here once the launch's first requests are out (the exchange,
 * and with its answer the field's first plan), because running it holds the page's thread for
 * a few hundred milliseconds, during which the exchange's answer could not send the plan request.
 * Any other page runs it at once.
 */
import { startHeadStart } from './head-start.js';

const start = startHeadStart(location, history);
window.furrowHeadStart = start;

const bundle = document.querySelector<HTMLLinkElement>('link[data-furrow-app]')?.href;
if (bundle) {
  const run = (): Promise<unknown> => import(/* @vite-ignore */ bundle);
  void (start?.sent ?? Promise.resolve()).then(run).catch((err: unknown) => {
    console.error(err);
    const root = document.getElementById('root') ?? document.body;
    root.textContent = 'The furrow planner could not be loaded. Please reload the page.';
  });
}
