import { BotMetrics } from '../../../src/runtime/operations/metrics/botMetrics.js';

/**
 * The metric names a PromQL expression reads: every `perpbot_*` identifier (recorded series are
 * `level:perpbot_...:ops` and are not read here) and Prometheus's own `up` and `ALERTS`. Label
 * names never start with `perpbot_`, so a token of that shape is a metric name wherever it stands.
 */
export function metricNamesIn(expr: string): string[] {
  const withoutStrings = expr.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""');
  const names = new Set<string>();
  for (const [name] of withoutStrings.matchAll(/(?<![\w:])(?:perpbot_[a-z0-9_]+|up|ALERTS)(?![\w:(])/g))
    names.add(name);
  return [...names];
}

/** Every series name a bot's /metrics serves, from its own registry (histograms with their three suffixes). */
export async function exposedNames(): Promise<Set<string>> {
  const names = new Set<string>();
  for (const metric of await new BotMetrics().registry.getMetricsAsJSON()) {
    names.add(metric.name);
    if (String(metric.type) === 'histogram')
      for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${metric.name}${suffix}`);
  }
  return names;
}
