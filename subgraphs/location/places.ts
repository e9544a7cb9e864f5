/**
 * The 12 districts and their mahallas as the location subgraph serves them: names and ids from
 * the vocabulary, centres from the geocoder's gazetteer (models/artifacts/location/gazetteer.json).
 * Built once at start; every lookup is in memory.
 */
import { loadGazetteer, type GazetteerFile } from '../../models/location/geocode';
import { DISTRICT_IDS, DISTRICT_NAMES, mahallasOf, matchDistrict, suggestDistricts, type DistrictId } from '../../models/vocabulary';

export interface Point {
  lat: number;
  lon: number;
}

export interface DistrictRecord {
  id: DistrictId;
  /** English display name (DISTRICT_NAMES): the District entity's key. */
  name: string;
  names: { english: string; uzbekLatin: string; russian: string };
  centroid: Point;
}

export interface MahallaRecord {
  id: string;
  name: string;
  cyrillic: string;
  districtId: DistrictId;
  centre: Point | null;
  centreSource: 'geocoded' | 'co_named' | null;
}

export class PlaceCatalogue {
  private readonly districtById: ReadonlyMap<DistrictId, DistrictRecord>;
  private readonly districtByName: ReadonlyMap<string, DistrictRecord>;
  private readonly mahallaById: ReadonlyMap<string, MahallaRecord>;
  private readonly mahallasByDistrict: ReadonlyMap<DistrictId, readonly MahallaRecord[]>;

  private constructor(readonly districts: readonly DistrictRecord[], mahallas: readonly MahallaRecord[]) {
    this.districtById = new Map(districts.map((d) => [d.id, d]));
    this.districtByName = new Map(districts.map((d) => [d.name, d]));
    this.mahallaById = new Map(mahallas.map((m) => [m.id, m]));
    this.mahallasByDistrict = new Map(districts.map((d) => [d.id, mahallas.filter((m) => m.districtId === d.id)]));
  }

  static load(gazetteer: GazetteerFile = loadGazetteer()): PlaceCatalogue {
    const gazetteerDistricts = new Map(gazetteer.districts.map((d) => [d.id, d]));
    const centres = new Map(gazetteer.mahallas.map((m) => [m.id, m]));
    const districts = DISTRICT_IDS.map((id): DistrictRecord => {
      const entry = gazetteerDistricts.get(id);
      if (!entry) throw new Error(`gazetteer has no district ${id}`);
      // The gazetteer lists the polygon file's names: English, Russian, Uzbek (Latin).
      const [, russian, uzbekLatin] = entry.names;
      return { id, name: DISTRICT_NAMES[id], names: { english: DISTRICT_NAMES[id], uzbekLatin, russian }, centroid: { lat: entry.lat, lon: entry.lon } };
    });
    const mahallas = DISTRICT_IDS.flatMap((districtId) =>
      mahallasOf(districtId).map((m): MahallaRecord => {
        const centre = centres.get(m.id);
        const placed = centre && centre.lat !== null && centre.lon !== null;
        return {
          id: m.id,
          name: m.name,
          cyrillic: m.cyrillic,
          districtId,
          centre: placed ? { lat: centre.lat!, lon: centre.lon! } : null,
          centreSource: placed ? (centre.source === 'co-named' ? 'co_named' : 'geocoded') : null,
        };
      }),
    );
    return new PlaceCatalogue(districts, mahallas);
  }

  district(id: DistrictId): DistrictRecord {
    return this.districtById.get(id)!;
  }

  /** The District entity's key: the English display name (the district code is accepted too). */
  districtByKey(name: string): DistrictRecord | null {
    return this.districtByName.get(name) ?? this.districtById.get(name as DistrictId) ?? null;
  }

  /** Any common spelling (Chilonzor tumani, Чиланзарский район, a small typo) → the district; null if none is close. */
  findDistrict(text: string): DistrictRecord | null {
    const match = matchDistrict(text);
    return match ? this.district(match.id) : null;
  }

  /** English names of the districts closest in spelling, best first. */
  suggestDistricts(text: string): string[] {
    return suggestDistricts(text);
  }

  mahalla(id: string): MahallaRecord | null {
    return this.mahallaById.get(id) ?? null;
  }

  /** The district's mahallas, most listed first. */
  mahallasOf(district: DistrictId): readonly MahallaRecord[] {
    return this.mahallasByDistrict.get(district) ?? [];
  }

  /** The mahalla of the district with this display name (the geocoder names mahallas so). */
  mahallaNamed(name: string, district: DistrictId): MahallaRecord | null {
    return this.mahallasOf(district).find((m) => m.name === name) ?? null;
  }
}
