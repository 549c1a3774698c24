/**
 * wagmi connectors for the two wallets, each lazy-importing its product.
 *
 * @packageDocumentation
 */
export {}
