/**
 * Configurations as the published clients make them: {@link createConfig}
 * for one base path (every request then names the SDK version), and the
 * hosted platform's production and sandbox configurations.
 */
import { BasePathError } from './ApiErrors.js'
import { Configuration } from './Configuration.js'
import { sdkVersion, sdkVersionHeader } from './wire/headers.js'

/** A configuration of the generated classes. */
export type ImmutableAPIConfiguration = Configuration

/** What {@link MultiRollupApiClients} takes: a configuration per backend. */
export type MultiRollupAPIConfiguration = {
  /** Chains, activities, collections, NFTs and their owners. */
  indexer: ImmutableAPIConfiguration
  /** Listings, bids, trades. */
  orderBook: ImmutableAPIConfiguration
  /** Passport, passport profile and guardian. */
  passport: ImmutableAPIConfiguration
}

/**
 * A configuration for `basePath`: every request sends `x-sdk-version` and
 * `headers` (e.g. `x-immutable-api-key`).
 *
 * @example
 * ```ts
 * import { createConfig, mr } from 'embedded-wallets/api'
 *
 * const chains = new mr.ChainsApi(
 *   createConfig({ basePath: 'http://127.0.0.1:8080' }),
 * )
 * ```
 * @throws {BasePathError} `basePath can not be empty` for an empty (or blank) base path
 */
export const createConfig = ({
  basePath,
  headers,
}: {
  basePath: string
  headers?: Record<string, string> | undefined
}): ImmutableAPIConfiguration => {
  if (typeof basePath !== 'string' || !basePath.trim())
    throw new BasePathError()
  return new Configuration({
    basePath,
    baseOptions: {
      headers: { [sdkVersionHeader]: sdkVersion, ...(headers ?? {}) },
    },
  })
}

const multiRollup = (basePath: string): MultiRollupAPIConfiguration => ({
  indexer: createConfig({ basePath }),
  orderBook: createConfig({ basePath }),
  passport: createConfig({ basePath }),
})

/** The hosted multi-rollup platform's configurations. */
export const multiRollupConfig = {
  getProduction: (): MultiRollupAPIConfiguration =>
    multiRollup('https://api.immutable.com'),
  getSandbox: (): MultiRollupAPIConfiguration =>
    multiRollup('https://api.sandbox.immutable.com'),
}

/** The hosted legacy exchange API's configurations. */
export const imxApiConfig = {
  getProduction: (): ImmutableAPIConfiguration =>
    createConfig({ basePath: 'https://api.x.immutable.com' }),
  getSandbox: (): ImmutableAPIConfiguration =>
    createConfig({ basePath: 'https://api.sandbox.x.immutable.com' }),
}
