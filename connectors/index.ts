/**
 * wagmi connectors for the two wallets, each lazy-importing its product.
 *
 * @packageDocumentation
 */
export { type MagicInstance, type MagicParameters, magic } from './magic.js'
