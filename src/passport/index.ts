/**
 * The game wallet: OIDC sign-in and a smart-contract wallet on a zkEVM chain,
 * with the published @imtbl/passport 2.x public API. Filled in by issues 4+.
 *
 * @packageDocumentation
 */
export {}
