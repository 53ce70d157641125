/** True for the API's paths (`/api`, `/api/…`, with or without a query string); any other path is the web client's. */
export function isApiPath(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  return path === '/api' || path.startsWith('/api/');
}
