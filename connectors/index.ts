/**
 * wagmi connectors for the two wallets, each lazy-importing its product.
 * They import nothing of wagmi at run time, so they work in an app that
 * installed `wagmi` (which nests `@wagmi/core`) as in one on `@wagmi/core`.
 *
 * @packageDocumentation
 */
export { type MagicInstance, type MagicParameters, magic } from './magic.js'
export {
  type ConnectEvmOptions,
  type PassportInstance,
  type PassportParameters,
  type PassportProvider,
  passport,
} from './passport.js'
