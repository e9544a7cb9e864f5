/** What the house model in service (models/artifacts/house) values and refuses, read from its manifest for the house tests. */
import { currentHouseVersion, readHouseManifest, type HouseManifest } from '../../models/house/manifest';
import { DISTRICT_IDS, DISTRICT_NAMES } from '../../models/vocabulary/codes';

/** The promoted house model's manifest; null when none is promoted (every house is then refused). */
export function houseManifest(): HouseManifest | null {
  const version = currentHouseVersion();
  return version ? readHouseManifest(version) : null;
}

/**
 * A district (English name) where a house is refused for too few training listings (the manifest's
 * market[district].n below minListings, or no houses at all); null when the model values every district.
 */
export function refusedHouseDistrict(manifest = houseManifest()): string | null {
  if (!manifest) return DISTRICT_NAMES.yunusabad;
  const refused = DISTRICT_IDS.find((id) => (manifest.market[id]?.n ?? 0) < manifest.minListings);
  return refused ? DISTRICT_NAMES[refused] : null;
}
