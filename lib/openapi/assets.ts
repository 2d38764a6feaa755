/**
 * Files the documentation functions read at run time. The build writes or
 * copies each next to its function's bundle (infra/bundling.ts); run from
 * source (`npm start`, tests) the functions find them where they come from.
 */

/** The OpenAPI document, written by `tsx infra/openapi.ts <file>`. */
export const OPENAPI_FILE = 'openapi.json';

/** The docs page's renderer: Redoc's standalone bundle, as the npm package ships it. */
export const RENDERER_FILE = 'redoc.standalone.js';
export const RENDERER_SOURCE = `node_modules/redoc/bundles/${RENDERER_FILE}`;
