/** Prometheus view of the residential runtime: inference time per call and the version in service (../common/model-metrics.ts). */
import type { ResidentialRuntime } from '../../models/residential/valuation';
import { modelMetrics } from '../common/model-metrics';

export function instrumentRuntime(runtime: ResidentialRuntime): ResidentialRuntime {
  const metrics = modelMetrics('residential');
  metrics.reportVersion(runtime.version);
  return {
    get version() {
      return runtime.version;
    },
    value(requests) {
      metrics.reportVersion(runtime.version); // the version in service can change under us (hot swap)
      return metrics.time(() => runtime.value(requests));
    },
    summary: () => runtime.summary(),
  };
}
