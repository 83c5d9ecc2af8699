// Types derived from the OpenAPI contract (openapi/generated/schema.d.ts is generated from openapi/openapi.yaml).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { components, operations } from '../../../openapi/generated/schema';

export type Schemas = components['schemas'];
export type OperationId = keyof operations;

type JsonContent<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;
export type BodyOf<Op extends OperationId> = JsonContent<NonNullable<operations[Op]['requestBody']>>;
export type ParamsOf<Op extends OperationId> = operations[Op]['parameters'] extends { path?: infer P } ? NonNullable<P> : never;
export type QueryOf<Op extends OperationId> = operations[Op]['parameters'] extends { query?: infer Q } ? NonNullable<Q> : never;

export type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
/** Handlers keyed by the contract's operationIds. */
export type Handlers = Partial<Record<OperationId, Handler>>;

export const bodyOf = <Op extends OperationId>(request: FastifyRequest, _op: Op) => request.body as BodyOf<Op>;
export const paramsOf = <Op extends OperationId>(request: FastifyRequest, _op: Op) => request.params as ParamsOf<Op>;
export const queryOf = <Op extends OperationId>(request: FastifyRequest, _op: Op) => request.query as QueryOf<Op>;
