import { CliError } from './cli-error';

/** A whole decimal number within [min, max], or a one-line CLI error naming the option. */
export function parseCliInteger(option: string, value: string, min: number, max: number): number {
  const number = /^[0-9]+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(number) || number < min || number > max) {
    throw new CliError(
      `${option} must be a whole number from ${min} to ${max}, not ${JSON.stringify(value)}`,
    );
  }
  return number;
}

/**
 * Trimmed, non-empty text of at most `maxLength` characters (code points), without control or
 * invisible formatting characters (which `keys:list` would echo back).
 */
export function parseCliText(option: string, value: string, maxLength: number): string {
  const text = value.trim();
  const length = [...text].length;
  if (length === 0 || length > maxLength || /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(text)) {
    throw new CliError(`${option} must be 1 to ${maxLength} printable characters`);
  }
  return text;
}
