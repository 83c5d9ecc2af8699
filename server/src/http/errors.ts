// Errors a handler throws to answer with a 4xx; the central error handler turns them into `{ message, errors?, code? }`.
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code?: string,
    readonly errors?: string[],
  ) {
    super(message);
  }
}

export const unauthenticated = (message = 'You need to log in to continue.') => new HttpError(401, message, 'UNAUTHENTICATED');
export const forbidden = (message = 'You do not have permission to do that.', code = 'FORBIDDEN') => new HttpError(403, message, code);
export const notFound = (what = 'Record') => new HttpError(404, `${what} not found.`, 'NOT_FOUND');
/** `errors`, when given, names the field at fault ("email: …"), so a form can show it under that field. */
export const conflict = (message: string, code = 'CONFLICT', errors?: string[]) => new HttpError(409, message, code, errors);
export const invalid = (message: string, errors?: string[]) => new HttpError(422, message, 'VALIDATION_FAILED', errors ?? [message]);
export const tooManyRequests = (message: string) => new HttpError(429, message, 'RATE_LIMITED');
export const unsupportedMediaType = () =>
  new HttpError(415, 'The request body must be JSON, sent with Content-Type: application/json.', 'UNSUPPORTED_MEDIA_TYPE');
