/**
 * The iframe wallet: a client for the passwordless-login provider's hidden
 * iframe, with the published magic-sdk's public API. Filled in by issue 3.
 *
 * @packageDocumentation
 */
export {}
