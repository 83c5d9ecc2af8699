// The contract's types for the web app. Generated from openapi/openapi.yaml into a place the server shares
// (openapi/generated/schema.d.ts, by `npm run api:generate`); this file only re-exports them.
export type * from '../../openapi/generated/schema';
