/**
 * wagmi connectors for the two wallets, each lazy-importing its product.
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
