/**
 * The browser-safe part of the client (reads, submission of signed transactions, live
 * subscriptions). The node serves these modules to the explorer with their types stripped
 * (GET /explorer/client/<file>.ts), `eventsource-parser` from /explorer/vendor/ (the node points
 * the bare import there, as workers have no import map).
 */
export { HttpTransport, OmbraApiError, OmbraUnreachable, type ClientOptions, type Query } from './http.ts';
export { OmbraClient, type Page, pathOf, type ParamsOf, type QueryOf, type ReadId } from './reads.ts';
export { ROUTES, type OperationId, type PathParams, type QueryValues } from './routes.ts';
export type { Answers } from '../api/endpoints/index.ts';
export type { Components } from '../queries/schemas/records.ts';
export { backoffMs, subscribe, type SubscribeEnd, type SubscribeOptions } from './subscribe.ts';
export type * from './types.ts';
