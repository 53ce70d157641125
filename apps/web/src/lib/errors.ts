/** The error every API call of the web client rejects with (lib/api.ts and the lib/*Api.ts helpers). */
/** A refused request: the server's typed error, or a network/parse failure (`code` 'network'). */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly version?: number,
    readonly reason?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}
