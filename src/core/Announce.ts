import { type AnnounceProviderParameters, announceProvider } from 'mipd'
import * as Errors from './Errors.js'
import { randomUuid } from './internal/uuid.js'

/** Any EIP-1193 provider: an object with a `request` function. */
export type Provider = { request: (...args: never) => unknown }

/** EIP-6963 provider info; `uuid` is optional here. */
export type Info = {
  /** Wallet name shown by wallet pickers. */
  name: string
  /** RFC-2397 image data URI, e.g. `data:image/svg+xml;base64,…`. */
  icon: string
  /** Reverse-DNS id of the wallet, e.g. `com.example.wallet`. */
  rdns: string
  /** UUIDv4 of this provider session. @default one per `rdns` per page */
  uuid?: string | undefined
}

const uuids = new Map<string, string>()

/**
 * Announces a provider to the page with EIP-6963 (mipd's `announceProvider`):
 * dispatches `eip6963:announceProvider` now and again on every
 * `eip6963:requestProvider`, until the returned function is called.
 *
 * The default `uuid` is a random v4 UUID made once per `rdns` for the page
 * session, so re-announcing the same wallet keeps its identity while two
 * wallets never share one (mipd's store dedupes by uuid). Without a `window`
 * (SSR) nothing is announced and a no-op is returned.
 *
 * @example
 * ```ts
 * import { Announce } from 'embedded-wallets/core'
 *
 * const unsubscribe = Announce.announce({
 *   provider,
 *   info: {
 *     name: 'Example Wallet',
 *     icon: 'data:image/svg+xml;base64,PHN2Zy8+',
 *     rdns: 'com.example.wallet',
 *   },
 * })
 * ```
 */
export function announce(parameters: announce.Parameters): () => void {
  const { info, provider } = parameters
  if (!/^data:image\/[\w.+-]+[;,]/i.test(info.icon))
    throw new InvalidIconError({ icon: info.icon })
  if (typeof window === 'undefined') return () => {}
  return announceProvider({
    info: {
      icon: info.icon as `data:image/${string}`,
      name: info.name,
      rdns: info.rdns,
      uuid: info.uuid ?? sessionUuid(info.rdns),
    },
    provider: provider as AnnounceProviderParameters['provider'],
  })
}

export declare namespace announce {
  type Parameters = {
    /** The EIP-1193 provider handed to dapps. */
    provider: Provider
    /** What wallet pickers show. */
    info: Info
  }
  type ErrorType = InvalidIconError
}

/** The page-session uuid of `rdns`, made on first use. */
function sessionUuid(rdns: string): string {
  let uuid = uuids.get(rdns)
  if (!uuid) {
    uuid = randomUuid()
    uuids.set(rdns, uuid)
  }
  return uuid
}

/** Thrown when the icon is not a `data:image/` URI. */
export class InvalidIconError extends Errors.BaseError {
  override readonly name = 'Announce.InvalidIconError'
  constructor({ icon }: { icon: string }) {
    super('The EIP-6963 icon must be a data:image/ URI (RFC 2397).', {
      details: `Received: ${icon.length > 40 ? `${icon.slice(0, 40)}…` : icon}`,
    })
  }
}
