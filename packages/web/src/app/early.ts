/**
 * Entry of `early-<hash>.js`, the small script index.html runs before the app's bundle: the
 * launch's head start (head-start.ts).
 */
import { startHeadStart } from './head-start.js';

window.furrowHeadStart = startHeadStart(location, history);
