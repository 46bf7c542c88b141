/**
 * Operations by id: the path of each filled in from the route table derived from the node's
 * route definitions (client/routes.ts), the answer typed from the same definitions
 * (client/answers.ts). `OmbraClient`'s named reads are built on `operation`.
 */
import type { Answers } from './answers.ts';
import type { HttpTransport, Query } from './http.ts';
import { type OperationId, type PathParams, type QueryValues, ROUTES } from './routes.ts';

/** The path parameters of an operation, if it has any. */
export type ParamsOf<Id extends OperationId> = Id extends keyof PathParams ? PathParams[Id] : Record<string, never>;
/** The query values of an operation, if it takes any. */
export type QueryOf<Id extends OperationId> = Id extends keyof QueryValues ? QueryValues[Id] : Record<string, never>;
/** The operations read with GET. */
export type ReadId = { [K in OperationId]: (typeof ROUTES)[K][0] extends 'GET' ? K : never }[OperationId];

/** The path of operation `id` with its parameters filled in, each percent-encoded. */
export function pathOf<Id extends OperationId>(id: Id, params: ParamsOf<Id>): string {
  const values = params as Record<string, string | number>;
  return ROUTES[id][1].replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => encodeURIComponent(String(values[name])));
}

/** A GET operation; a `{error, code}` answer throws OmbraApiError. */
export function read<Id extends ReadId>(http: HttpTransport, id: Id, params: ParamsOf<Id>, query?: QueryOf<Id>): Promise<Answers[Id]> {
  return http.get<Answers[Id]>(pathOf(id, params), query as Query | undefined);
}

/** A GET operation that answers null for 404 NOT_FOUND. */
export function find<Id extends ReadId>(
  http: HttpTransport,
  id: Id,
  params: ParamsOf<Id>,
  query?: QueryOf<Id>,
): Promise<Answers[Id] | null> {
  return http.find<Answers[Id]>(pathOf(id, params), query as Query | undefined);
}
