import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ExecutionLog, Ports } from '../../engine/ports.js';
import type { ExecutionsRepository } from '../store/index.js';

/**
 * The product's Prometheus metrics (prom-client), one registry per product instance (a process
 * may hold several in tests). `GET /metrics` serves them, followed by the Temporal SDK's own
 * worker metrics (its Core runtime's Prometheus exporter, read on each scrape).
 */
export function createMetrics(opts: { temporalMetricsUrl?: string | null; processMetrics?: boolean } = {}) {
  const registry = new Registry();
  if (opts.processMetrics !== false) collectDefaultMetrics({ register: registry });
  const httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by route template, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route template, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const callEvents = new Counter({
    name: 'call_events_total',
    help: 'Call events received from voice platforms: accepted (a new call stored), duplicate (already accepted), refused (not accepted; see status)',
    labelNames: ['source', 'type', 'result', 'status'] as const,
    registers: [registry],
  });
  const postCallRuns = new Counter({
    name: 'post_call_runs_total',
    help: 'Post-call workflow runs finished, by call outcome and final status',
    labelNames: ['outcome', 'status'] as const,
    registers: [registry],
  });
  const stepDuration = new Histogram({
    name: 'post_call_step_duration_seconds',
    help: 'Duration of one attempt of a post-call action step, by action type and result',
    labelNames: ['action', 'status'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });
  const stepAttempts = new Counter({
    name: 'post_call_step_attempts_total',
    help: 'Attempts of post-call action steps, by action type and result (a retried step counts each attempt)',
    labelNames: ['action', 'status'] as const,
    registers: [registry],
  });

  return {
    registry,
    httpRequests,
    httpDuration,
    callEvents,
    postCallRuns,
    stepDuration,
    stepAttempts,
    /** Prometheus text: ours, then Temporal's worker metrics when its exporter is configured. */
    async text(): Promise<string> {
      let temporal = '';
      if (opts.temporalMetricsUrl) {
        try {
          const res = await fetch(opts.temporalMetricsUrl, { signal: AbortSignal.timeout(2000) });
          if (res.ok) temporal = await res.text();
        } catch {
          // Temporal's series are missing from this scrape; ours are still served.
        }
      }
      const ours = await registry.metrics();
      return temporal ? `${ours.trimEnd()}\n${temporal.trimEnd()}\n` : ours;
    },
    contentType: registry.contentType,
  };
}
export type Metrics = ReturnType<typeof createMetrics>;

/**
 * Records run and step metrics where the worker's activities report them (the execution-log
 * port), so the engine stays free of metrics code: runs by outcome and status when one finishes,
 * each action attempt's duration and result by action type.
 */
export function instrumentedPorts(ports: Ports, metrics: Metrics, executions: ExecutionsRepository): Ports {
  const started = new Map<string, number>();
  const keyOf = (s: { executionId: string; seq: number; attempt: number }) => `${s.executionId}:${s.seq}:${s.attempt}`;
  const log = ports.executionLog;
  const executionLog: ExecutionLog = {
    async stepStarted(s) {
      started.set(keyOf(s), performance.now());
      await log.stepStarted(s);
    },
    async stepFinished(s) {
      await log.stepFinished(s);
      const at = started.get(keyOf(s));
      // Only action attempts start; branch evaluations and skipped drafts are recorded as finished only.
      if (at === undefined) return;
      started.delete(keyOf(s));
      metrics.stepDuration.observe({ action: s.nodeType, status: s.status }, (performance.now() - at) / 1000);
      metrics.stepAttempts.inc({ action: s.nodeType, status: s.status });
    },
    async executionFinished(e) {
      await log.executionFinished(e);
      const outcome = (await executions.outcomeOf(e.executionId)) ?? 'unknown';
      metrics.postCallRuns.inc({ outcome, status: e.status });
    },
  };
  return { ...ports, executionLog };
}
