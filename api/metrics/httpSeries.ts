/**
 * The HTTP request counter and duration histogram, kept in plain numbers per (method, route)
 * and written out in prom-client's registry at scrape time. prom-client validates and hashes
 * the label set on every `inc` and `observe`, about a microsecond a request on the hot reads;
 * here a request costs two map lookups and a bucket scan. The exposition is the one prom-client
 * writes for a Counter and a Histogram of these names and labels (same lines, same label order).
 */
import type { Registry } from 'prom-client';

/** One (method, route) duration series: observations per bucket (not cumulative, the last one past every bound). */
interface Durations {
  method: string;
  route: string;
  buckets: Float64Array;
  sum: number;
  count: number;
}

/** Answers of one (method, route, status). */
interface Count {
  method: string;
  route: string;
  status: string;
  n: number;
}

/** A sample as prom-client's registry writes it. */
interface Sample {
  labels: Record<string, string | number>;
  sharedLabels?: Record<string, string>;
  value: number;
  metricName?: string;
  /** Bucket samples carry one in prom-client (null: none). */
  exemplar?: null;
}

/** A metric object as prom-client's registry reads it. */
interface RegistryMetric {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  aggregator: 'sum';
  get(): Promise<{ name: string; help: string; type: string; values: Sample[]; aggregator: 'sum' }>;
  getForPromString(): Promise<{ name: string; help: string; type: string; values: Sample[]; aggregator: 'sum' }>;
  reset(): void;
}

/** HTTP requests answered (`<counter>{method,route,status}`) and their durations (`<histogram>{method,route}`). */
export class HttpSeries {
  private readonly bounds: readonly number[];
  // Keyed method → route (→ status); the arrays keep the order each first appeared, as prom-client writes them.
  private counts = new Map<string, Map<string, Map<number, Count>>>();
  private countList: Count[] = [];
  private durations = new Map<string, Map<string, Durations>>();
  private durationList: Durations[] = [];

  constructor(
    registry: Registry,
    names: { requests: string; seconds: string },
    help: { requests: string; seconds: string },
    bounds: number[],
  ) {
    this.bounds = [...bounds].sort((a, b) => a - b);
    const register = (m: RegistryMetric) => registry.registerMetric(m as unknown as Parameters<Registry['registerMetric']>[0]);
    register(
      this.metric(
        names.requests,
        help.requests,
        'counter',
        () => this.requestSamples(),
        () => {
          this.counts = new Map();
          this.countList = [];
        },
      ),
    );
    register(
      this.metric(
        names.seconds,
        help.seconds,
        'histogram',
        () => this.durationSamples(names.seconds),
        () => {
          this.durations = new Map();
          this.durationList = [];
        },
      ),
    );
  }

  /** One answered request. */
  observe(method: string, route: string, status: number, seconds: number): void {
    const byStatus = inner(inner(this.counts, method), route);
    const c = byStatus.get(status);
    if (c) c.n++;
    else {
      const fresh = { method, route, status: String(status), n: 1 };
      byStatus.set(status, fresh);
      this.countList.push(fresh);
    }
    const routes = inner(this.durations, method);
    let d = routes.get(route);
    if (!d) {
      d = { method, route, buckets: new Float64Array(this.bounds.length + 1), sum: 0, count: 0 };
      routes.set(route, d);
      this.durationList.push(d);
    }
    const b = this.bounds;
    let i = 0;
    while (i < b.length && seconds > b[i]) i++;
    d.buckets[i]++;
    d.sum += seconds;
    d.count++;
  }

  private requestSamples(): Sample[] {
    return this.countList.map((c) => ({ labels: { method: c.method, route: c.route, status: c.status }, value: c.n }));
  }

  private durationSamples(name: string): Sample[] {
    const out: Sample[] = [];
    for (const d of this.durationList) {
      const shared = { method: d.method, route: d.route };
      let acc = 0;
      this.bounds.forEach((le, i) => {
        acc += d.buckets[i];
        out.push({ labels: { le }, sharedLabels: shared, value: acc, metricName: `${name}_bucket`, exemplar: null });
      });
      out.push(
        { labels: { le: '+Inf' }, sharedLabels: shared, value: d.count, metricName: `${name}_bucket`, exemplar: null },
        { labels: {}, sharedLabels: shared, value: d.sum, metricName: `${name}_sum` },
        { labels: {}, sharedLabels: shared, value: d.count, metricName: `${name}_count` },
      );
    }
    return out;
  }

  private metric(name: string, help: string, type: 'counter' | 'histogram', samples: () => Sample[], reset: () => void): RegistryMetric {
    const data = (values: Sample[]) => ({ name, help, type, values, aggregator: 'sum' as const });
    return {
      name,
      help,
      type,
      aggregator: 'sum',
      getForPromString: async () => data(samples()),
      // As prom-client's get(): shared labels merged into each sample's own.
      get: async () => data(samples().map(({ labels, sharedLabels, ...rest }) => ({ ...rest, labels: { ...sharedLabels, ...labels } }))),
      reset,
    };
  }
}

/** The map under `key` in `m`, added empty when absent. */
function inner<K, K2, V>(m: Map<K, Map<K2, V>>, key: K): Map<K2, V> {
  let v = m.get(key);
  if (!v) {
    v = new Map();
    m.set(key, v);
  }
  return v;
}
