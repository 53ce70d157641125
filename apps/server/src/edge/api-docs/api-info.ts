/**
 * What the OpenAPI document (REST) and the AsyncAPI document (WebSocket) say alike about the public API:
 * its version, licence and contact. `API_VERSION` moves as docs/api.md "Versioning" says.
 */

/** The public API's version (`info.version` of both documents): semver, see docs/api.md "Versioning". */
export const API_VERSION = '0.4.0';

/** The licence of the API's documents and of `@klondike/client` (OpenAPI takes the SPDX id, AsyncAPI the url). */
export const API_LICENSE = {
  name: 'MIT',
  identifier: 'MIT',
  url: 'https://spdx.org/licenses/MIT.html',
} as const;

/** Who answers for the API. */
export const API_CONTACT = { name: 'Klondike Online' } as const;
