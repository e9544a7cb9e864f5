/**
 * What personal data looks like in a request, by key and by value. The service never needs any;
 * a client that sends it gets PERSONAL_DATA_NOT_ACCEPTED rather than having it silently dropped.
 */

/**
 * Keys that look like personal data, matched on the key lower-cased with separators removed.
 * Vehicle identifiers (VIN, number plate, registration certificate) lead to the owner through
 * the vehicle registry, so they count as personal data too.
 */
export const PERSONAL_DATA_KEY_PATTERN =
  /^(?:(?:first|last|middle|full|owner|client|customer|borrower)?name|fio|fullname|ism|familiya|sharif|surname|phone(?:number)?|tel|telephone|telefon|mobile|msisdn|passport(?:number|no|series)?|pasport|pinfl|jshshir|inn|stir|email|mail|emailaddress|birthdate|dateofbirth|dob|birthday|tugilgansana|vin|vincode|vinnumber|bodynumber|chassisnumber|(?:license|licence|number|registration)?plate(?:number)?|platenumber|gosnomer|davlatraqami|texpasport|techpassport|registrationcertificate)$/;

export function looksLikePersonalDataKey(key: string): boolean {
  return PERSONAL_DATA_KEY_PATTERN.test(key.toLowerCase().replace(/[\s_\-.'ʻ’]/g, ''));
}

/** Values that carry personal data whatever their key: phone numbers and e-mail addresses. */
const PHONE_PATTERN = /(?:\+?998[\s\-()]*)?\(?\d{2}\)?[\s\-]*\d{3}[\s\-]*\d{2}[\s\-]*\d{2}/;
const EMAIL_PATTERN = /[^\s@]+@[^\s@]+\.[a-z]{2,}/i;
export function looksLikePersonalDataValue(value: string): boolean {
  return PHONE_PATTERN.test(value) || EMAIL_PATTERN.test(value);
}
