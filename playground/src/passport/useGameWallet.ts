import type { ZkEvmProvider } from 'embedded-wallets/passport'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { type Address, createPublicClient, http, type PublicClient } from 'viem'
import type { LogEntry } from '../components/EventLog.js'
import { emulatorChain } from '../config.js'
import type { Info } from '../emulator.js'
import { useFailures } from '../ui/errors.js'
import { messageOf } from '../ui/format.js'
import { testTokenAbi } from '../wallet/tokens.js'

/** What the wallet section shows of the account, read from the chain. */
export type WalletReading = {
  /** Wei. */
  eth: bigint
  /** The test ERC-20, in its base units (18 decimals). */
  token: bigint
  /** Whether the wallet contract exists yet (the relayer deploys it with the first send). */
  deployed: boolean
}

/** The game wallet as the panel uses it. */
export type GameWallet = {
  /** The EIP-1193 provider, once `connectEvm` has loaded it. */
  provider: ZkEvmProvider | undefined
  /** The connected wallet, after `eth_requestAccounts`. */
  address: Address | undefined
  /** A public client on the emulator's chain (reads, signature checks). */
  client: PublicClient
  reading: WalletReading | undefined
  /** Reads the balances and code again. */
  refresh(): Promise<void>
  /** `eth_requestAccounts`: signs in if needed, registers on first use. */
  connect(): Promise<void>
  connecting: boolean
  /** The provider's events, newest first. */
  events: readonly LogEntry[]
  clearEvents(): void
}

/**
 * Waits for the game wallet's zkEVM provider (`passport.connectEvm()`, made
 * once with the page and announced through EIP-6963; this panel uses it
 * directly, without wagmi), and follows it: its events (`accountsChanged`,
 * `chainChanged`, `connect`, `disconnect`) go to a log that outlives the
 * sessions (so a logout's `disconnect` shows), the account follows
 * `accountsChanged`, and the balances are read from the chain on demand.
 */
export function useGameWallet(
  gameProvider: Promise<ZkEvmProvider>,
  info: Info,
  /** The signed-in player's subject; `undefined` while signed out. */
  player: string | undefined,
): GameWallet {
  const [provider, setProvider] = useState<ZkEvmProvider>()
  const [address, setAddress] = useState<Address>()
  const [reading, setReading] = useState<WalletReading>()
  const [connecting, setConnecting] = useState(false)
  const [events, setEvents] = useState<readonly LogEntry[]>([])
  const nextId = useRef(1)
  const { report, clear } = useFailures('passport')
  const client = useMemo(
    () =>
      createPublicClient({
        chain: emulatorChain(info),
        transport: http(info.rpcUrl),
      }) as PublicClient,
    [info],
  )

  const record = useCallback(
    (event: string, summary: string, detail?: unknown) => {
      const id = nextId.current++
      setEvents((current) => [
        {
          id,
          at: new Date(),
          source: 'provider',
          event,
          summary,
          ...(detail === undefined ? {} : { detail }),
        },
        ...current.slice(0, 99),
      ])
    },
    [],
  )

  useEffect(() => {
    let active = true
    let detach = () => {}
    gameProvider.then(
      (loaded) => {
        if (!active) return
        const accountsChanged = (accounts: readonly Address[]) => {
          record(
            'accountsChanged',
            accounts.length ? accounts.join(', ') : 'no account',
            accounts,
          )
          setAddress(accounts[0])
        }
        const chainChanged = (chainId: string) =>
          record('chainChanged', `chain ${Number(chainId)}`, chainId)
        const connect = (connectInfo: { chainId: string }) =>
          record('connect', `chain ${Number(connectInfo.chainId)}`, connectInfo)
        const disconnect = (error: unknown) =>
          record('disconnect', messageOf(error), {
            code: (error as { code?: unknown }).code,
          })
        loaded.on('accountsChanged', accountsChanged)
        loaded.on('chainChanged', chainChanged)
        loaded.on('connect', connect)
        loaded.on('disconnect', disconnect)
        detach = () => {
          loaded.removeListener('accountsChanged', accountsChanged)
          loaded.removeListener('chainChanged', chainChanged)
          loaded.removeListener('connect', connect)
          loaded.removeListener('disconnect', disconnect)
        }
        setProvider(loaded)
      },
      (error: unknown) => {
        if (active) report('Loading the zkEVM wallet', error)
      },
    )
    return () => {
      active = false
      detach()
    }
  }, [gameProvider, record, report])

  // Signed out (in any of the page's instances): the account is gone. The
  // provider says so too (`accountsChanged []`) when its own instance
  // signed out; the other instance's logout reaches it only through here.
  useEffect(() => {
    if (player === undefined) setAddress(undefined)
  }, [player])

  const refresh = useCallback(async () => {
    if (!address) return
    try {
      const [eth, token, code] = await Promise.all([
        client.getBalance({ address }),
        client.readContract({
          address: info.contracts.erc20 as Address,
          abi: testTokenAbi,
          functionName: 'balanceOf',
          args: [address],
        }),
        client.getCode({ address }),
      ])
      setReading({ eth, token, deployed: code !== undefined && code !== '0x' })
    } catch (error) {
      report('Reading the balances', error)
    }
  }, [address, client, info.contracts.erc20, report])

  useEffect(() => {
    setReading(undefined)
    void refresh()
  }, [refresh])

  const connect = useCallback(async () => {
    if (!provider) return
    setConnecting(true)
    clear()
    try {
      const accounts = await provider.request({
        method: 'eth_requestAccounts',
      })
      setAddress(accounts[0])
    } catch (error) {
      report('Connecting the wallet', error)
    } finally {
      setConnecting(false)
    }
  }, [provider, clear, report])

  return {
    provider,
    address,
    client,
    reading,
    refresh,
    connect,
    connecting,
    events,
    clearEvents: () => setEvents([]),
  }
}
