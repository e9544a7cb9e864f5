/**
 * What every kind's runtime says about the version it serves (the summary the *Model queries
 * return). Apart from publishing, so that serving never loads the ONNX writers and trainers.
 */
import type { AccuracyMetrics } from './metrics';

interface SummarisableManifest {
  version: string;
  trainedAt: string;
  dataSnapshot: { id: string };
  members: { name: string; algorithm: string; weight: number }[];
  intervals: { coverage: number };
  evaluation: { headline: { protocol: string; overall: AccuracyMetrics }; featureImportance: { feature: string; importance: number }[] };
}

/** The part of a version's summary every kind shares; each adds its own groups (districts, make/model groups). */
export function versionSummary(manifest: SummarisableManifest) {
  const headline = manifest.evaluation.headline;
  return {
    version: manifest.version,
    trainedAt: manifest.trainedAt,
    dataSnapshot: manifest.dataSnapshot.id,
    evaluation: headline.protocol,
    metrics: headline.overall,
    featureImportance: manifest.evaluation.featureImportance,
    members: manifest.members.map((m) => ({ name: m.name, algorithm: m.algorithm, weight: m.weight })),
    intervalCoverage: manifest.intervals.coverage,
  };
}
