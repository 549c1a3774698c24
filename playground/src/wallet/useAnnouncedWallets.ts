import { createStore, type EIP6963ProviderDetail } from 'mipd'
import { useEffect, useState } from 'react'

/**
 * Every wallet announced on this page through EIP-6963, in the order they
 * announced themselves. wagmi's own discovery drops a wallet whose rdns a
 * configured connector already has (the iframe wallet's, here); this list
 * keeps them all, since each is a provider a dApp may connect to.
 */
export function useAnnouncedWallets(): readonly EIP6963ProviderDetail[] {
  const [wallets, setWallets] = useState<readonly EIP6963ProviderDetail[]>([])
  useEffect(() => {
    // The store asks the page's wallets to announce themselves again
    // (`eip6963:requestProvider`) and listens for their announcements.
    const store = createStore()
    setWallets(store.getProviders())
    const unsubscribe = store.subscribe((providers) => setWallets(providers))
    return () => {
      unsubscribe()
      store.destroy()
    }
  }, [])
  return wallets
}
