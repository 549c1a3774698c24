/**
 * What wallet pickers show for the iframe wallet: its EIP-6963 announcement
 * and its wagmi connector both use these, so the two never disagree. A leaf
 * module: the connector imports it without loading the client.
 */

/** The provider's logo. */
const iconSvg =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48"><rect width="48" height="48" rx="12" fill="#6851ff"/><path d="M12 34V14l12 12 12-12v20" stroke="#fff" stroke-width="4" fill="none"/></svg>'

/** The iframe wallet's name, icon and reverse-DNS id (EIP-6963). */
export const providerInfo = {
  name: 'Magic',
  /** Reverse DNS of magic.link, the provider's domain. */
  rdns: 'link.magic',
  /**
   * `data:image/svg+xml;base64,…` of the logo, encoded on load: the SVG
   * text gzips far better than its base64.
   */
  icon: `data:image/svg+xml;base64,${/* @__PURE__ */ btoa(iconSvg)}`,
} as const
