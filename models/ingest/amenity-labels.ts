/**
 * How each source spells its amenity block, mapped to one set of snake_case keys. Pure data.
 * Keys starting with `near_` describe the surroundings (olx "nearestStructures"), not the flat.
 */

/** uybor's twenty 0/1 columns (apartments and houses files). */
export const UYBOR_FLAG_COLUMNS: Readonly<Record<string, string>> = {
  'Lift': 'lift',
  'Security': 'security',
  'Internet': 'internet',
  'Playground': 'playground',
  'Sauna': 'sauna',
  'Sewerage': 'sewerage',
  'Fridge': 'fridge',
  'Telephone Line': 'telephone',
  'Separate Bathrooms': 'separate_bathroom',
  'Surveillance': 'video_surveillance',
  'Pool': 'pool',
  'Water': 'water_supply',
  'Microwave': 'microwave',
  'Parking': 'parking',
  'AC': 'air_conditioning',
  'TV': 'tv',
  'Washing Machine': 'washing_machine',
  'Cable TV': 'cable_tv',
  'Furniture': 'furniture',
  'Gas': 'gas',
};

/**
 * uybor_2025_b: one column per amenity holding a word when present. Anything else means absent:
 * "No internet", "no lift", and a stray "1" in `lifts` that appears exactly where the early-2025
 * scrape of the same listing has an empty block.
 */
export const UYBOR_B_WORD_COLUMNS: Readonly<Record<string, { word: string; key: string }>> = {
  lifts: { word: 'Лифт', key: 'lift' },
  securities: { word: 'Охрана', key: 'security' },
  internets: { word: 'Интернет', key: 'internet' },
  playgrounds: { word: 'Детская площадка', key: 'playground' },
  sewerages: { word: 'Канализация', key: 'sewerage' },
  bathrooms: { word: 'Санузел раздельный', key: 'separate_bathroom' },
  video_monitor: { word: 'Видеонаблюдение', key: 'video_surveillance' },
  parking_spaces: { word: 'Парковочное место', key: 'parking' },
  air_conditions: { word: 'Кондиционер', key: 'air_conditioning' },
  furnitures: { word: 'Мебель', key: 'furniture' },
};

/** olx "inQuart": what is in the flat. */
export const OLX_IN_FLAT_LABELS: Readonly<Record<string, string>> = {
  'Телефон': 'telephone',
  'Кабельное ТВ': 'cable_tv',
  'Интернет': 'internet',
  'Кондиционер': 'air_conditioning',
  'Балкон': 'balcony',
  'Телевизор': 'tv',
  'Кухня': 'kitchen',
  'Холодильник': 'fridge',
  'Стиральная машина': 'washing_machine',
};

/** olx "nearestStructures"; several labels contain a comma themselves. */
export const OLX_NEARBY_LABELS: Readonly<Record<string, string>> = {
  'Больница, поликлиника': 'near_hospital',
  'Детская площадка': 'near_playground',
  'Детский сад': 'near_kindergarten',
  'Остановки': 'near_public_transport',
  'Парк, зелёная зона': 'near_park',
  'Развлекательные заведения': 'near_entertainment',
  'Рестораны, кафе': 'near_restaurants',
  'Стоянка': 'near_parking',
  'Супермаркет, магазины': 'near_shops',
  'Школа': 'near_school',
};
