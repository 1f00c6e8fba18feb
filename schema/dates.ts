/**
 * Calendar dates and ISO-8601 date-times as field values and validation bounds use them (shared
 * by schema/model-definition.ts and shared/content/validate-fields.ts).
 */

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:Z|([+-])(\d{2}):(\d{2}))$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function isRealDate(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** True when `value` is `YYYY-MM-DD` and names a real calendar date (no 2023-02-29). */
export function isCalendarDate(value: string): boolean {
  const match = DATE_PATTERN.exec(value);
  if (!match) return false;
  return isRealDate(Number(match[1]), Number(match[2]), Number(match[3]));
}

/**
 * The instant an ISO-8601 date-time names, in milliseconds since the epoch, or `undefined` when
 * `value` is not one. The form is `YYYY-MM-DDTHH:MM[:SS[.fraction]]` followed by `Z` or a
 * `±HH:MM` offset; the date must be real and the time within 00:00:00–23:59:59.
 */
export function dateTimeMillis(value: string): number | undefined {
  const match = DATE_TIME_PATTERN.exec(value);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s, fraction, sign, offsetHours, offsetMinutes] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = s === undefined ? 0 : Number(s);
  if (!isRealDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return undefined;
  let offset = 0;
  if (sign !== undefined) {
    const oh = Number(offsetHours);
    const om = Number(offsetMinutes);
    if (oh > 23 || om > 59) return undefined;
    offset = (sign === "-" ? -1 : 1) * (oh * 60 + om);
  }
  const millis = fraction === undefined ? 0 : Math.floor(Number(`0.${fraction}`) * 1000);
  // setUTCFullYear, unlike Date.UTC, does not map years 0–99 onto 1900–1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millis);
  const time = date.getTime() - offset * 60_000;
  return Number.isFinite(time) ? time : undefined;
}
