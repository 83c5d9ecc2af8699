// What the database said of a failed statement: its SQLSTATE code, on the driver's error or, when Drizzle wraps it
// (DrizzleQueryError), on its cause.

export const UNIQUE_VIOLATION = '23505';
export const FOREIGN_KEY_VIOLATION = '23503';

export function databaseErrorCode(error: unknown): string | undefined {
  return (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
}
