/** Prometheus view of the model runtime: inference time per call and the version in service. */
import { Gauge, Histogram, register } from 'prom-client';
import type { HomeValue, ResidentialModelSummary, ResidentialRuntime } from '../../models/residential/valuation';
import type { HomeRequest } from '../../models/residential/request';

function metric<T>(name: string, create: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? create();
}

export function instrumentRuntime(runtime: ResidentialRuntime): ResidentialRuntime {
  const inference = metric('model_inference_seconds', () => new Histogram({
    name: 'model_inference_seconds', help: 'Time to value one call (all rows, all ensemble members)', labelNames: ['kind'],
    buckets: [0.0002, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5],
  }));
  const info = metric('model_info', () => new Gauge({ name: 'model_info', help: 'Model version in service (value 1)', labelNames: ['kind', 'version'] }));
  let reported = '';
  const reportVersion = () => {
    if (runtime.version === reported) return;
    reported = runtime.version;
    info.reset();
    info.set({ kind: 'residential', version: reported }, 1);
  };
  reportVersion();
  return {
    get version() {
      return runtime.version;
    },
    async value(requests: readonly HomeRequest[]): Promise<HomeValue[]> {
      reportVersion(); // the version in service can change under us (hot swap)
      const end = inference.startTimer({ kind: 'residential' });
      try {
        return await runtime.value(requests);
      } finally {
        end();
      }
    },
    summary(): ResidentialModelSummary {
      return runtime.summary();
    },
  };
}
