/**
 * Clients of the platform's HTTP APIs, generated from their OpenAPI specs,
 * in the shape of the published `@imtbl/generated-clients` (switching is an
 * import change), built on `fetch`:
 *
 * - `mr`: the multi-rollup API (indexer, order book, passport, passport
 *   profile, guardian): one class per tag (`mr.NftsApi`), one method per
 *   operation taking one request-parameters object, answering
 *   `{ data, status, statusText, headers }`; `MultiRollupApiClients` and
 *   `multiRollupConfig` as published;
 * - `imx`: the legacy exchange API, `ImxApiClients` and `imxApiConfig` as
 *   @imtbl/generated-clients 2.14.0 had them;
 * - `createConfig({ basePath, headers })`;
 * - `ApiErrors`: the error answers as typed errors, one class per code;
 * - the platform's enumerations and record statuses (`OrderStatus`, …).
 *
 * Each class is its own module: a dApp pays for the tags it constructs.
 * `embedded-wallets/api/mr` and `embedded-wallets/api/imx` export the
 * namespaces' names directly, for bundlers that keep every member of a
 * namespace a package re-exports (esbuild does; rolldown and Vite do not).
 *
 * @example
 * ```ts
 * import { createConfig, mr } from 'embedded-wallets/api'
 *
 * const nfts = new mr.NftsApi(createConfig({ basePath: 'https://api.sandbox.immutable.com' }))
 * const { data } = await nfts.listNFTsByAccountAddress({
 *   chainName: 'imtbl-zkevm-testnet',
 *   accountAddress: '0x…',
 * })
 * ```
 *
 * @packageDocumentation
 */

export * as ApiErrors from './ApiErrors.js'
export {
  createConfig,
  type ImmutableAPIConfiguration,
  imxApiConfig,
  type MultiRollupAPIConfiguration,
  multiRollupConfig,
} from './config.js'
export { ImxApiClients } from './ImxApiClients.js'
export * as imx from './imx/index.js'
export { MultiRollupApiClients } from './MultiRollupApiClients.js'
export * as mr from './mr/index.js'
export * from './wire/enumerations.js'
