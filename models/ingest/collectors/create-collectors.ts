/**
 * The three sites' collectors, built with what their adapters read: the ingestion's home normaliser
 * and the vehicle vocabulary's lookups. Built here, in the models floor, so that a collecting process
 * (platform/collect/) reaches the vehicle ingestion only through this folder.
 */
import { createNormaliser, type Normaliser } from '../normaliser';
import { createVehicleLookups, type VehicleLookups } from '../../vehicle/ingest/lookups';
import type { CollectSite } from './collected-listing';
import { avtoelonCollector, olxCollector, uyborCollector, type SiteCollector } from './site-collector';

export interface AdapterTools {
  normaliser: Normaliser;
  lookups: VehicleLookups;
}

/** The normaliser and lookups the adapters read, built once (each is a few vocabularies' worth of work). */
export function adapterTools(): AdapterTools {
  return { normaliser: createNormaliser(), lookups: createVehicleLookups() };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function createCollectors(tools: AdapterTools = adapterTools()): Record<CollectSite, SiteCollector<any>> {
  return {
    uybor: uyborCollector({ normaliser: tools.normaliser }),
    olx: olxCollector({ normaliser: tools.normaliser }),
    avtoelon: avtoelonCollector({ lookups: tools.lookups }),
  };
}
