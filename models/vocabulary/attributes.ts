/** Listing attributes (renovation, building type, bathroom, yes/no flags) → canonical codes. */
import { BATHROOM_LABELS, BUILDING_TYPE_LABELS, RENOVATION_LABELS } from './attribute-labels';
import type { Bathroom, BuildingType, Renovation } from './codes';
import { labelMatcher } from './label-matcher';

export const matchRenovation: (text: string) => Renovation | null = labelMatcher(RENOVATION_LABELS);
export const matchBuildingType: (text: string) => BuildingType | null = labelMatcher(BUILDING_TYPE_LABELS);
export const matchBathroom: (text: string) => Bathroom | null = labelMatcher(BATHROOM_LABELS);

// Yes/no answers are read as every door's field tables read them (schema/yes-no.ts).
export { parseYesNo } from '../../schema/yes-no';
