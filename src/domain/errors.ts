/** Codes of `processing_error` (API.md §4): document outcomes, not HTTP errors. */
export const PROCESSING_ERROR_CODES = [
  'unsupported_format',
  'corrupt_file',
  'encrypted_file',
  'too_many_pages',
  'image_too_large',
  'timeout',
  'resource_limit',
  'worker_lost',
  'extraction_failed',
] as const;
export type ProcessingErrorCode = (typeof PROCESSING_ERROR_CODES)[number];

export interface ProcessingError {
  code: ProcessingErrorCode;
  message: string;
}

/** Codes of the API error envelope (API.md §5). */
export type ApiErrorCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'batch_not_found'
  | 'document_not_found'
  | 'not_found'
  | 'conflict'
  | 'request_timeout'
  | 'unprocessable'
  | 'file_too_large'
  | 'too_many_files'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'internal_error'
  | 'unavailable'
  | 'insufficient_storage';

/** An API-call failure with a stable code and HTTP status; one handler renders the envelope. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const invalidRequest = (message: string, details?: Record<string, unknown>) =>
  new ApiError(400, 'invalid_request', message, details);
export const unauthorized = (message = 'missing or unknown API key') => new ApiError(401, 'unauthorized', message);
export const batchNotFound = (name: string) => new ApiError(404, 'batch_not_found', `batch ${name} not found`);
export const documentNotFound = (id: string) => new ApiError(404, 'document_not_found', `document ${id} not found`);
export const conflict = (message: string) => new ApiError(409, 'conflict', message);
