/**
 * Child process of `furrow bench --section traffic`: plans one side of a field's comparison per
 * message (the system on the lanes, or its operations each alone) and sends the figures back. The
 * two sides run in two child processes of their own, so neither gains from what the other left in
 * memory (the planner's caches, the JIT's warm code for that field): each is timed as a call alone.
 */
import { runTrafficSide, type TrafficJob } from './bench-traffic.js';

process.on('message', (msg: { job?: TrafficJob; done?: boolean }) => {
  if (msg.done || !msg.job) {
    process.disconnect();
    return;
  }
  void runTrafficSide(msg.job).then((r) => process.send?.(r));
});
