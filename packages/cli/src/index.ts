/**
 * `@furrow/cli` as a library: `main` (the \`furrow\` command, see main.ts), the request builder
 * and the SVG drawing of a plan.
 */
export { main, PLAN_FORMAT_NAMES } from './main.js';
export { UsageError } from './errors.js';
export { planToSvg } from './svg.js';
export { buildRequest } from './commands/plan.js';
