/**
 * Fuel, gearbox, body, drive and colour in any of the data's and the API's languages → canonical
 * codes. Ingestion and the serving side call these same functions; blank or unknown → null.
 */
import { labelMatcher } from '../../vocabulary/label-matcher';
import type { BodyType, Colour, Drive, Fuel, Transmission } from '../../../schema/vehicle-codes';
import { BODY_LABELS, COLOUR_LABELS, DRIVE_LABELS, FUEL_LABELS, TRANSMISSION_LABELS } from './labels';

export const normaliseFuel: (text: string) => Fuel | null = labelMatcher(FUEL_LABELS);
export const normaliseTransmission: (text: string) => Transmission | null = labelMatcher(TRANSMISSION_LABELS);
export const normaliseBody: (text: string) => BodyType | null = labelMatcher(BODY_LABELS);
export const normaliseDrive: (text: string) => Drive | null = labelMatcher(DRIVE_LABELS);
export const normaliseColour: (text: string) => Colour | null = labelMatcher(COLOUR_LABELS);
