/**
 * Child process of `furrow bench --section machines`: plans the jobs its parent sends, one at a
 * time, and sends each result back.
 */
import { MACHINE_CONFIGS, runMachine } from './bench-machines.js';
import type { GeosCheck, MachineJob } from './bench-machines.js';

process.on('message', (msg: { job?: MachineJob; geos?: GeosCheck; done?: boolean }) => {
  if (msg.done || !msg.job) {
    process.disconnect();
    return;
  }
  const job = msg.job;
  const config = MACHINE_CONFIGS.find((c) => c.id === job.configId);
  if (!config) throw new Error(`unknown configuration ${job.configId}`);
  void runMachine(job.fieldFile, job.fieldId, config, msg.geos).then((r) => process.send?.(r));
});
