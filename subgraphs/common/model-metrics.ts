/**
 * Prometheus view of a model runtime, per kind of collateral: inference time per call
 * (`model_inference_seconds{kind}`) and the version in service (`model_info{kind,version} 1`).
 * Metrics are per process and shared by every subgraph in it (get-or-create by name).
 */
import { Gauge, Histogram, register } from 'prom-client';

function metric<T>(name: string, create: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? create();
}

export interface ModelMetrics {
  /** Times one runtime call (all rows, all ensemble members). */
  time<T>(call: () => Promise<T>): Promise<T>;
  /** Marks `version` as the one in service; cheap, so callers report on every call (a hot swap shows at once). */
  reportVersion(version: string): void;
}

export function modelMetrics(kind: string): ModelMetrics {
  const inference = metric('model_inference_seconds', () => new Histogram({
    name: 'model_inference_seconds', help: 'Time to value one call (all rows, all ensemble members)', labelNames: ['kind'],
    buckets: [0.0002, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5],
  }));
  const info = metric('model_info', () => new Gauge({ name: 'model_info', help: 'Model version in service (value 1)', labelNames: ['kind', 'version'] }));
  let reported: string | null = null;
  return {
    async time(call) {
      const end = inference.startTimer({ kind });
      try {
        return await call();
      } finally {
        end();
      }
    },
    reportVersion(version) {
      if (reported !== null && reported !== version) info.remove({ kind, version: reported });
      reported = version;
      info.set({ kind, version }, 1);
    },
  };
}

/** The runtime surface instrumentation needs: a version and a batch valuation call. */
interface ValuationRuntime<Request, Value> {
  readonly version: string;
  value(requests: readonly Request[]): Promise<Value>;
}

/**
 * Wraps a runtime so every valuation call is timed and the version in service is reported (it can
 * change under us: hot swap). Everything else is the runtime's own.
 */
export function instrumentRuntime<Request, Value, R extends ValuationRuntime<Request, Value>>(kind: string, runtime: R): R {
  const metrics = modelMetrics(kind);
  metrics.reportVersion(runtime.version);
  const value = (requests: readonly Request[]) => {
    metrics.reportVersion(runtime.version);
    return metrics.time(() => runtime.value(requests));
  };
  return new Proxy(runtime, {
    get: (target, property) => (property === 'value' ? value : Reflect.get(target, property, target)),
  });
}
