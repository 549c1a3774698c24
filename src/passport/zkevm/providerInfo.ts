/**
 * What wallet pickers show for the game wallet: its EIP-6963 announcement
 * and its wagmi connector both use these, so the two never disagree. A leaf
 * module: the connector imports it without loading the client.
 */

/** The game wallet's logo. */
const iconSvg =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48"><defs><radialGradient id="g" cx="30%" cy="30%" r="80%"><stop offset="0" stop-color="#f3a8ff"/><stop offset="1" stop-color="#0d0d0d"/></radialGradient></defs><circle cx="24" cy="24" r="24" fill="url(#g)"/><path d="M15 31V17h9a5 5 0 0 1 0 10h-5" stroke="#fff" stroke-width="3" fill="none" stroke-linecap="round"/></svg>'

/** The game wallet's name, icon and reverse-DNS id (EIP-6963). */
export const providerInfo = {
  name: 'Immutable Passport',
  rdns: 'com.immutable.passport',
  icon: `data:image/svg+xml;base64,${/* @__PURE__ */ btoa(iconSvg)}`,
} as const
