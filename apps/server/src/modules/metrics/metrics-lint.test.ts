import { describe, expect, it } from 'vitest';
import { createMetrics } from './metrics.registry.js';

/**
 * The checks `promtool check metrics` makes (Prometheus's promlint, in client_golang's
 * `prometheus/testutil/promlint`), run on everything the portal exposes: help text, counters named
 * `…_total` and nothing else so named, snake case, base units spelled out, no type in the name.
 */

interface Family {
  name: string;
  type: string;
  help: string | null;
}

function families(exposition: string): Family[] {
  const byName = new Map<string, Family>();
  for (const line of exposition.split('\n')) {
    const m = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (!m) continue;
    const family = byName.get(m[2]!) ?? { name: m[2]!, type: 'untyped', help: null };
    if (m[1] === 'HELP') family.help = m[3]!;
    else family.type = m[3]!;
    byName.set(family.name, family);
  }
  return [...byName.values()];
}

// promlint's non-base units (lintMetricUnits) and abbreviations (lintMetricUnits' unit table).
const NON_BASE_UNITS =
  /(^|_)(milliseconds|microseconds|nanoseconds|minutes|hours|days|weeks|kilobytes|megabytes|gigabytes|terabytes|kibibytes|mebibytes|gibibytes|bits|percent|celsius|fahrenheit)(_|$)/;
const ABBREVIATED_UNITS = /(^|_)(ms|us|ns|sec|secs|mins|hrs|kb|mb|gb|pct)(_|$)/;
const TYPE_IN_NAME = /(^|_)(counter|gauge|histogram|summary)(_|$)/;

function lint(exposition: string): string[] {
  const problems: string[] = [];
  for (const f of families(exposition)) {
    if (!f.help?.trim()) problems.push(`${f.name}: no help text`);
    if (f.type === 'counter' && !f.name.endsWith('_total')) problems.push(`${f.name}: counter metrics should have "_total" suffix`);
    if (f.type !== 'counter' && f.name.endsWith('_total')) problems.push(`${f.name}: non-counter metrics should not have "_total" suffix`);
    if (!/^[a-z_][a-z0-9_]*$/.test(f.name)) problems.push(`${f.name}: metric names should be written in snake_case`);
    if (NON_BASE_UNITS.test(f.name)) problems.push(`${f.name}: use base unit (seconds, bytes)`);
    if (ABBREVIATED_UNITS.test(f.name)) problems.push(`${f.name}: metric names should not contain abbreviated units`);
    if (TYPE_IN_NAME.test(f.name)) problems.push(`${f.name}: metric name should not include type`);
  }
  return problems;
}

describe('the metrics pass promtool check metrics', () => {
  it('lints clean, default process metrics included', async () => {
    const metrics = createMetrics();
    const text = await metrics.registry.metrics();
    expect(text).toContain('# TYPE process_cpu_seconds_total counter');
    expect(text).toContain('# TYPE nodejs_active_handles gauge');
    expect(lint(text)).toEqual([]);
  });

  it('catches what promtool catches', () => {
    const bad = [
      '# HELP a_gauge_total x',
      '# TYPE a_gauge_total gauge',
      '# HELP requests x',
      '# TYPE requests counter',
      '# TYPE no_help gauge',
      '# HELP latency_milliseconds x',
      '# TYPE latency_milliseconds histogram',
      '# HELP wait_ms x',
      '# TYPE wait_ms gauge',
      '# HELP camelCase x',
      '# TYPE camelCase gauge',
    ].join('\n');
    expect(lint(bad)).toEqual([
      'a_gauge_total: non-counter metrics should not have "_total" suffix',
      'a_gauge_total: metric name should not include type',
      'requests: counter metrics should have "_total" suffix',
      'no_help: no help text',
      'latency_milliseconds: use base unit (seconds, bytes)',
      'wait_ms: metric names should not contain abbreviated units',
      'camelCase: metric names should be written in snake_case',
    ]);
  });
});
