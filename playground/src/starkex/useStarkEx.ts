import type { IMXProvider, Passport } from 'embedded-wallets/passport'
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react'
import { useFailures } from '../ui/errors.js'
import {
  type Balance,
  type Exchange,
  type ImxAsset,
  type OrderV3,
  pageSize,
  type Trade,
  type Transfer,
} from './exchange.js'

/** The game wallet's StarkEx account, as far as the view knows it. */
export type Layer =
  | { state: 'loading' }
  /** No cached session: the game wallet is connected but signed out. */
  | { state: 'signed-out' }
  | { state: 'failed'; retry(): void }
  | { state: 'unregistered'; imx: IMXProvider }
  | {
      state: 'registered'
      imx: IMXProvider
      /** The player's StarkEx Ethereum address (`imx_eth_address`). */
      address: string
      /** The Stark key the exchange holds for it, once read. */
      starkKey: string | undefined
    }

/**
 * The StarkEx provider of the page's game wallet (`connectImxSilent`: the
 * session the wagmi connector signed in), and whether its player is
 * registered. `register()` registers them and moves on.
 */
export function useStarkExLayer(passport: Passport, exchange: Exchange) {
  const [layer, setLayer] = useState<Layer>({ state: 'loading' })
  const [attempt, setAttempt] = useState(0)
  const [registering, setRegistering] = useState(false)
  const { report, clear } = useFailures('starkex')

  const enter = useCallback(
    async (imx: IMXProvider, alive: () => boolean) => {
      if (!(await imx.isRegisteredOffchain())) {
        if (alive()) setLayer({ state: 'unregistered', imx })
        return
      }
      const address = await imx.getAddress()
      if (!alive()) return
      setLayer({ state: 'registered', imx, address, starkKey: undefined })
      // The account works without it: a failed read is reported, not fatal.
      try {
        const { data } = await exchange.users.getUsers({ user: address })
        if (alive())
          setLayer({
            state: 'registered',
            imx,
            address,
            starkKey: data.accounts[0],
          })
      } catch (error) {
        if (alive()) report('Reading the Stark key', error)
      }
    },
    [exchange, report],
  )

  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt reruns it on Try again
  useEffect(() => {
    let alive = true
    setLayer({ state: 'loading' })
    ;(async () => {
      try {
        const imx = await passport.connectImxSilent()
        if (!alive) return
        if (!imx) {
          setLayer({ state: 'signed-out' })
          return
        }
        await enter(imx, () => alive)
      } catch (error) {
        if (!alive) return
        report('Opening the StarkEx account', error)
        setLayer({ state: 'failed', retry: () => setAttempt((n) => n + 1) })
      }
    })()
    return () => {
      alive = false
    }
  }, [passport, enter, report, attempt])

  const register = useCallback(async () => {
    if (layer.state !== 'unregistered') return
    clear()
    setRegistering(true)
    try {
      await layer.imx.registerOffchain()
      await enter(layer.imx, () => true)
    } catch (error) {
      report('Registering with StarkEx', error)
    } finally {
      setRegistering(false)
    }
  }, [layer, enter, report, clear])

  return { layer, register, registering }
}

/** What the view reads from the exchange for one player. */
export type Reads = {
  balances: readonly Balance[]
  /** The NFTs the player holds on StarkEx. */
  assets: readonly ImxAsset[]
  /** Every active order (the player's and the others'). */
  active: readonly OrderV3[]
  /** The ids of every order of the player (any status): their trades' sides. */
  mine: ReadonlySet<number>
  trades: readonly Trade[]
  /** The transfers the player sent or received, newest first. */
  transfers: readonly Transfer[]
  /** The owner (`user`) of each order a trade of the player names. */
  orderUsers: ReadonlyMap<number, string>
}

/** How often the view reads the exchange again while shown, ms. */
const pollInterval = 2_000

/**
 * Reads the player's balances, NFTs, the active orders, the trades and
 * the transfers, and reads them again every {@link pollInterval} while the
 * view is `shown` (on screen, in a visible tab), so that what others do
 * shows without a reload. `refresh()` reads at once (after the player's
 * own actions).
 */
export function useExchangeReads(
  exchange: Exchange,
  address: string,
  shown: boolean,
) {
  const [reads, setReads] = useState<Reads>()
  const { report } = useFailures('starkex')
  const orderUsers = useRef(new Map<number, string>())
  // A read that keeps failing is reported once, not every poll.
  const failing = useRef(false)
  const running = useRef<Promise<void> | undefined>(undefined)

  const read = useCallback(async () => {
    const [balances, assets, active, mineList, trades, sent, received] =
      await Promise.all([
        exchange.balances.listBalances({ owner: address }),
        exchange.assets.listAssets({ user: address, pageSize }),
        exchange.orders.listOrdersV3({ status: 'active', pageSize }),
        exchange.orders.listOrdersV3({ user: address, pageSize }),
        exchange.trades.listTradesV3({ pageSize }),
        exchange.transfers.listTransfers({ user: address, pageSize }),
        exchange.transfers.listTransfers({ receiver: address, pageSize }),
      ])
    const transfers = new Map<number, Transfer>()
    for (const transfer of [...sent.data.result, ...received.data.result])
      transfers.set(transfer.transaction_id, transfer)
    const mine = new Set(mineList.data.result.map((order) => order.order_id))
    const known = orderUsers.current
    for (const order of [...active.data.result, ...mineList.data.result])
      known.set(order.order_id, order.user)
    const unknown = trades.data.result
      .filter(
        (trade) => mine.has(trade.a.order_id) || mine.has(trade.b.order_id),
      )
      .flatMap((trade) => [trade.a.order_id, trade.b.order_id])
      .filter((id) => !known.has(id))
    for (const id of new Set(unknown)) {
      const { data } = await exchange.orders.getOrderV3({ id: String(id) })
      known.set(id, data.user)
    }
    return {
      balances: balances.data.result,
      assets: assets.data.result,
      active: active.data.result,
      mine,
      trades: trades.data.result,
      transfers: [...transfers.values()].sort(
        (a, b) => b.transaction_id - a.transaction_id,
      ),
      orderUsers: new Map(known),
    }
  }, [exchange, address])

  const refresh = useCallback(() => {
    // One read at a time; a refresh during a poll waits for a fresh one.
    const start = async () => {
      try {
        const next = await read()
        setReads(next)
        failing.current = false
      } catch (error) {
        if (!failing.current) report('Reading the StarkEx account', error)
        failing.current = true
      }
    }
    const next = (running.current ?? Promise.resolve()).then(start)
    running.current = next
    return next
  }, [read, report])

  useEffect(() => {
    if (!shown) return
    let timer: ReturnType<typeof setTimeout> | undefined
    let stopped = false
    const tick = async () => {
      if (document.visibilityState === 'visible') await refresh()
      if (!stopped) timer = setTimeout(tick, pollInterval)
    }
    void tick()
    return () => {
      stopped = true
      clearTimeout(timer)
    }
  }, [refresh, shown])

  return { reads, refresh }
}

/**
 * Whether the element `ref` holds is on screen (any part of it), through an
 * `IntersectionObserver`; `true` where the page has none.
 */
export function useShown(ref: RefObject<Element | null>): boolean {
  const [shown, setShown] = useState(false)
  useEffect(() => {
    const element = ref.current
    if (!element || typeof IntersectionObserver === 'undefined') {
      setShown(true)
      return
    }
    const observer = new IntersectionObserver((entries) => {
      const entry = entries[entries.length - 1]
      if (entry) setShown(entry.isIntersecting)
    })
    observer.observe(element)
    return () => observer.disconnect()
  }, [ref])
  return shown
}
