import type { Info } from '../emulator.js'

/**
 * The marketplace: list an NFT the connected account owns on the emulated
 * order book, buy a listing, and see the trades.
 */
export function MarketplaceView(props: { info: Info }) {
  void props
  return <p className="muted">The marketplace is coming.</p>
}
