/**
 * What both wallets share: the base error, the coded RPC errors, JSON-RPC
 * requests, a typed emitter and PromiEvent, key-value storage, EIP-6963
 * announcement, the fetch helper of their backend calls (429 throttling, a
 * time-out) with a retry helper, and a batched JSON-RPC HTTP transport.
 *
 * @packageDocumentation
 */

export * as Announce from './Announce.js'
export * as Emitter from './Emitter.js'
export * as Errors from './Errors.js'
export * as Http from './Http.js'
export * as PromiEvent from './PromiEvent.js'
export * as Rpc from './Rpc.js'
export * as RpcErrors from './RpcErrors.js'
export * as Storage from './Storage.js'
export * as Transport from './Transport.js'
