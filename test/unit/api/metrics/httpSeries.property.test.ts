/** The HTTP series write exactly what prom-client's Counter and Histogram write for the same answers. */
import fc from 'fast-check';
import { Counter, Histogram, Registry } from 'prom-client';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HttpSeries } from '../../../../api/metrics/httpSeries.ts';

const BOUNDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const NAMES = { requests: 'x_http_requests_total', seconds: 'x_http_request_duration_seconds' };
const HELP = { requests: 'requests', seconds: 'durations' };

const answer = fc.record({
  method: fc.constantFrom('GET', 'POST', 'OPTIONS', 'HEAD'),
  route: fc.constantFrom('/api/health', '/api/chain/block/:index', 'unmatched', '/api/a"b\\c'),
  status: fc.constantFrom(200, 204, 400, 404, 413, 429, 500),
  // Bucket bounds themselves included: `le` is inclusive.
  seconds: fc.oneof(fc.constantFrom(...BOUNDS, 0, 3), fc.double({ min: 0, max: 5, noNaN: true })),
});

test('the exposition and the JSON equal prom-client’s after any answers, and after a reset', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(answer, { maxLength: 60 }), async (answers) => {
      const ours = new Registry();
      const series = new HttpSeries(ours, NAMES, HELP, BOUNDS);
      const theirs = new Registry();
      const counter = new Counter({
        name: NAMES.requests,
        help: HELP.requests,
        labelNames: ['method', 'route', 'status'],
        registers: [theirs],
      });
      const histogram = new Histogram({
        name: NAMES.seconds,
        help: HELP.seconds,
        labelNames: ['method', 'route'],
        buckets: BOUNDS,
        registers: [theirs],
      });
      for (const a of answers) {
        series.observe(a.method, a.route, a.status, a.seconds);
        counter.inc({ method: a.method, route: a.route, status: String(a.status) });
        histogram.observe({ method: a.method, route: a.route }, a.seconds);
      }
      assert.equal(await ours.metrics(), await theirs.metrics());
      // As JSON is read (prom-client leaves some keys present but undefined).
      const json = async (r: Registry) => JSON.parse(JSON.stringify(await r.getMetricsAsJSON()));
      assert.deepEqual(await json(ours), await json(theirs));
      ours.resetMetrics();
      theirs.resetMetrics();
      assert.equal(await ours.metrics(), await theirs.metrics());
      for (const a of answers.slice().reverse()) {
        series.observe(a.method, a.route, a.status, a.seconds);
        counter.inc({ method: a.method, route: a.route, status: String(a.status) });
        histogram.observe({ method: a.method, route: a.route }, a.seconds);
      }
      assert.equal(await ours.metrics(), await theirs.metrics());
    }),
    { numRuns: 200 },
  );
});
