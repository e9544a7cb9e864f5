/**
 * olx_apartments_2024.csv (olx.uz, spring 2024): one row per ad with a free-text title (never kept),
 * seller type, new/resale, areas, floor, building and repair type (often blank), bathroom, furniture,
 * two comma lists (in the flat, nearby), the district, and a price in у.е. or сум.
 */
import { amenitiesFromLabelList, mergeAmenityBlocks } from '../amenities';
import { OLX_IN_FLAT_LABELS, OLX_NEARBY_LABELS } from '../amenity-labels';
import { OLX_MARKET_LABELS, OLX_SELLER_LABELS } from '../labels';
import type { Normaliser } from '../normaliser';
import type { SourceAdapter } from './adapter';
import { createOlxFormAdapter } from './olx-form';

export function createOlx2024Adapter(normaliser: Normaliser): SourceAdapter {
  return createOlxFormAdapter(normaliser, {
    source: 'olx_2024',
    columns: { district: 'district', price: 'price', area: 'allArea', rooms: 'rooms', floor: 'floor', totalFloors: 'floorsNumber' },
    details: (row) => ({
      fields: {
        renovation: normaliser.renovation(row['repairType']),
        buildingType: normaliser.buildingType(row['buildingType']),
        furniture: normaliser.yesNo(row['setOfFurniture']),
        bathroom: normaliser.bathroom(row['bathroom']),
        market: OLX_MARKET_LABELS[row['housingType']] ?? null,
        seller: OLX_SELLER_LABELS[row['type']] ?? null,
        amenities: mergeAmenityBlocks(
          amenitiesFromLabelList(row['inQuart'], OLX_IN_FLAT_LABELS),
          amenitiesFromLabelList(row['nearestStructures'], OLX_NEARBY_LABELS),
        ),
      },
      corrections: [],
    }),
  });
}
