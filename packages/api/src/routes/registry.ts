/**
 * Route groups of the full platform (docs/api.md "Full platform"), mounted by `createApp` after the Quick Start ones.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv, Deps } from '../context.js';
import { landRoutes } from './land.js';
import { machineProfileRoutes } from './machine-profiles.js';
import { partnerRoutes } from './partner.js';
import { userKeyRoutes } from './user-keys.js';
import { planningExtrasRoutes, portalRoutes } from '../portals/routes.js';
import { jobRoutes } from '../jobs/routes.js';
import { trafficRoutes } from './traffic.js';

export const extraRoutes: ((deps: Deps) => OpenAPIHono<AppEnv>)[] = [
  partnerRoutes,
  landRoutes,
  machineProfileRoutes,
  planningExtrasRoutes,
  trafficRoutes,
  (deps) => portalRoutes(deps),
  jobRoutes,
  userKeyRoutes,
];
