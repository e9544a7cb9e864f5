/** The flat model in service for model tests: loaded once per suite with a fixed clock, and a typical flat to value. */
import { currentVersion } from '../../models/ensemble/versions';
import { RESIDENTIAL_DIR } from '../../models/residential/manifest';
import type { ApartmentRequest } from '../../models/residential/request';
import { ResidentialModelSet } from '../../models/residential/runtime';

/** Today for the runtime in these tests. */
export const TEST_TODAY = new Date('2026-11-24T12:00:00Z');

/** Loads the promoted flat model before the suite and closes it after; call the result inside tests. */
export function useServedFlatModel(): () => ResidentialModelSet {
  let model: ResidentialModelSet | undefined;
  beforeAll(async () => {
    model = await ResidentialModelSet.load(currentVersion(RESIDENTIAL_DIR)!, RESIDENTIAL_DIR, () => TEST_TODAY);
  });
  afterAll(() => model?.close());
  return () => model!;
}

/** A 60 m² two-room resale flat on the 3rd of 9 floors in Chilanzar, euro finish, panel: one the rule rates high. */
export const CHILANZAR_FLAT: ApartmentRequest = {
  district: 'chilanzar', mahallaId: null, area: 60, rooms: 2, floor: 3, totalFloors: 9, renovation: 'euro', buildingType: 'panel',
  furniture: null, bathroom: null, market: 'resale', seller: null, lat: null, lon: null, askingPrice: null, valuationDate: null,
};
