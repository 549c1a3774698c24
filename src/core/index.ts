/**
 * The shared core of both wallets: errors, JSON-RPC helpers, a typed emitter,
 * PromiEvent, storage, EIP-6963 announcement and an HTTP retry helper.
 *
 * @packageDocumentation
 */

export * as Announce from './Announce.js'
export * as Emitter from './Emitter.js'
export * as Errors from './Errors.js'
export * as Http from './Http.js'
export * as PromiEvent from './PromiEvent.js'
export * as Rpc from './Rpc.js'
export * as Storage from './Storage.js'
