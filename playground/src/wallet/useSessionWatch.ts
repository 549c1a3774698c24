import { useEffect } from 'react'
import { useConnection } from 'wagmi'

/** How often a connected page asks the wallet for its accounts, ms. */
const interval = 3_000

/**
 * Notices a session that ended elsewhere: a logout in another tab, an
 * expiry, a revocation. The iframe wallet learns its accounts only from
 * answers (it emits `accountsChanged` when `eth_accounts` answers
 * differently), so nothing arrives by itself; asking again on focus and
 * every few seconds lets the provider emit `accountsChanged([])`, on which
 * the connector (ours or wagmi's `injected`) disconnects and the page
 * follows wagmi back to its connect view.
 */
export function useSessionWatch(): void {
  const { connector, status } = useConnection()
  useEffect(() => {
    if (status !== 'connected' || !connector) return
    const check = () => {
      connector.getAccounts().catch(() => {
        // A failed check says nothing about the session; the next one asks again.
      })
    }
    const onVisibility = () => {
      if (document.visibilityState === 'visible') check()
    }
    const timer = setInterval(check, interval)
    window.addEventListener('focus', check)
    document.addEventListener('visibilitychange', onVisibility)
    return () => {
      clearInterval(timer)
      window.removeEventListener('focus', check)
      document.removeEventListener('visibilitychange', onVisibility)
    }
  }, [connector, status])
}
