import type { Passport } from 'embedded-wallets/passport'
import type { Info } from '../emulator.js'

/**
 * The game wallet's StarkEx layer: register, balances, transfer, order and
 * trade through `passport.connectImx()`.
 */
export function StarkExView(props: { info: Info; passport: Passport }) {
  void props
  return <p className="muted">The StarkEx view is coming.</p>
}
