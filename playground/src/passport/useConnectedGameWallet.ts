import type { ZkEvmProvider } from 'embedded-wallets/passport'
import { useEffect, useState } from 'react'
import type { Address } from 'viem'
import { useConnection } from 'wagmi'

/** The game wallet's rdns (its EIP-6963 announcement and its connector). */
export const gameWalletRdns = 'com.immutable.passport'

/** The game wallet as wagmi connected it. */
export type ConnectedGameWallet = {
  address: Address
  /** The connected provider, once wagmi has handed it over. */
  provider: ZkEvmProvider | undefined
}

/**
 * The game wallet when it is the connected wallet, through its wagmi
 * connector or its EIP-6963 announcement (wagmi's `injected`); otherwise
 * `undefined`. Its provider answers what only the game wallet knows
 * (`im_addSessionActivity`).
 */
export function useConnectedGameWallet(): ConnectedGameWallet | undefined {
  const { status, address, connector } = useConnection()
  const isGame =
    status === 'connected' &&
    connector !== undefined &&
    (connector.type === 'passport' ||
      connector.id === gameWalletRdns ||
      [connector.rdns ?? []].flat().includes(gameWalletRdns))
  const [provider, setProvider] = useState<ZkEvmProvider>()
  useEffect(() => {
    setProvider(undefined)
    if (!isGame || !connector) return
    let active = true
    connector.getProvider().then(
      (value) => active && setProvider(value as ZkEvmProvider),
      () => {},
    )
    return () => {
      active = false
    }
  }, [isGame, connector])
  return isGame && address ? { address, provider } : undefined
}
