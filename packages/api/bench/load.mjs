/**
 * Load generator for the API benchmark, run as its own process: `concurrency` loops POST the
 * same body for `seconds` and report completed requests, errors and latency percentiles as JSON.
 *   node load.mjs <url> <apiKey> <bodyFile> <concurrency> <seconds>
 */
import { readFileSync } from 'node:fs';

const [url, apiKey, bodyFile, concurrencyArg, secondsArg] = process.argv.slice(2);
const body = readFileSync(bodyFile, 'utf8');
const concurrency = Number(concurrencyArg);
const end = performance.now() + Number(secondsArg) * 1000;
const latencies = [];
let errors = 0;
let bytes = 0;

async function loop() {
  while (performance.now() < end) {
    const t0 = performance.now();
    try {
      const res = await fetch(url, { method: 'POST', headers: { 'X-API-KEY': apiKey, 'Content-Type': 'application/json' }, body });
      const text = await res.text();
      bytes += text.length;
      if (res.status !== 200) {
        errors++;
        if (errors < 3) process.stderr.write(`status ${res.status}: ${text.slice(0, 200)}\n`);
        continue;
      }
      latencies.push(performance.now() - t0);
    } catch (err) {
      errors++;
    }
  }
}

const started = performance.now();
await Promise.all(Array.from({ length: concurrency }, loop));
const elapsed = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const q = (p) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] : NaN);
process.stdout.write(JSON.stringify({ completed: latencies.length, errors, seconds: elapsed, perSecond: latencies.length / elapsed, p50Ms: q(0.5), p99Ms: q(0.99), bytes }) + '\n');
