/**
 * Stands in for the MCP SDK's Ajv provider in the server bundle (see scripts/build.mjs). The server
 * only uses a JSON Schema validator for client elicitation replies, which droidwright never requests,
 * and it is always given `noClientSchemas`; loading Ajv just to never use it cost ~30 ms of every
 * `droidwright mcp` start.
 */
export class AjvJsonSchemaValidator {
  constructor() {
    throw new Error('droidwright mcp passes its own jsonSchemaValidator; the Ajv provider is not bundled.');
  }
}
