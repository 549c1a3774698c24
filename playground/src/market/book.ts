/**
 * The platform's indexer and order book as the marketplace reads them:
 * the generated clients of `embedded-wallets/api` on the emulated platform
 * API, and the queries the view polls while it is on screen.
 *
 * @packageDocumentation
 */
import { useQuery } from '@tanstack/react-query'
import { createConfig, mr } from 'embedded-wallets/api'
import { useEffect, useState } from 'react'
import type { Address } from 'viem'
import type { Info } from '../emulator.js'

/** The clients of the platform API the marketplace calls. */
export type Book = {
  readonly orders: mr.OrdersApi
  readonly nfts: mr.NftsApi
  readonly chains: mr.ChainsApi
}

/** The clients for the emulator's platform API, without a secret key. */
export function createBook(info: Info): Book {
  const config = createConfig({ basePath: info.passport.apiUrl })
  return {
    orders: new mr.OrdersApi(config),
    nfts: new mr.NftsApi(config),
    chains: new mr.ChainsApi(config),
  }
}

/** How often the view reads the book again while it is on screen (ms). */
export const pollInterval = 1_500

/** How many listings and trades the view shows (the newest). */
export const pageSize = 25

/**
 * The platform's name of the emulator's chain (`imtbl-zkevm-…`), which
 * every order book and indexer path names, read from the chains route.
 */
export function useChainName(book: Book, chainId: number) {
  return useQuery({
    queryKey: ['market', 'chain-name', chainId],
    queryFn: async () => {
      const { data } = await book.chains.listChains()
      const chain = data.result.find(
        (candidate) => candidate.id === `eip155:${chainId}`,
      )
      if (!chain)
        throw new Error(
          `The platform API lists no chain eip155:${chainId}, the chain this page runs on.`,
        )
      return chain.name
    },
    staleTime: Number.POSITIVE_INFINITY,
  })
}

/** The ERC-721s `owner` holds, as the indexer has them. */
export function useOwnedNfts(options: {
  book: Book
  chainName: string | undefined
  owner: Address | undefined
  poll: boolean
}) {
  const { book, chainName, owner, poll } = options
  return useQuery({
    queryKey: ['market', 'nfts', chainName, owner],
    enabled: chainName !== undefined && owner !== undefined,
    queryFn: async () => {
      const { data } = await book.nfts.listNFTsByAccountAddress({
        chainName: chainName as string,
        accountAddress: owner as Address,
      })
      return data.result.filter((nft) => nft.contract_type === 'ERC721')
    },
    refetchInterval: poll ? pollInterval : false,
    refetchOnWindowFocus: poll,
  })
}

/** Which listings the view shows: every status, or one. */
export type StatusFilter = 'ALL' | mr.OrderStatus['name']

/** The newest listings of the book, of one status or all. */
export function useListings(options: {
  book: Book
  chainName: string | undefined
  status: StatusFilter
  poll: boolean
}) {
  const { book, chainName, status, poll } = options
  return useQuery({
    queryKey: ['market', 'listings', chainName, status],
    enabled: chainName !== undefined,
    queryFn: async () => {
      const { data } = await book.orders.listListings({
        chainName: chainName as string,
        ...(status !== 'ALL' && { status }),
        sortBy: 'created_at',
        sortDirection: 'desc',
        pageSize,
      })
      return data.result
    },
    refetchInterval: poll ? pollInterval : false,
    refetchOnWindowFocus: poll,
  })
}

/**
 * The account's own listings that can still change (pending, active or
 * inactive), by NFT: what the view shows as listed already.
 */
export function useOwnListings(options: {
  book: Book
  chainName: string | undefined
  owner: Address | undefined
  poll: boolean
}) {
  const { book, chainName, owner, poll } = options
  return useQuery({
    queryKey: ['market', 'own-listings', chainName, owner],
    enabled: chainName !== undefined && owner !== undefined,
    queryFn: async () => {
      const { data } = await book.orders.listListings({
        chainName: chainName as string,
        accountAddress: owner as Address,
        sortBy: 'created_at',
        sortDirection: 'desc',
        pageSize: 200,
      })
      return data.result.filter((order) => live.has(order.status.name))
    },
    refetchInterval: poll ? pollInterval : false,
    refetchOnWindowFocus: poll,
  })
}

/** The statuses a listing can still change from. */
export const live: ReadonlySet<string> = new Set([
  'PENDING',
  'ACTIVE',
  'INACTIVE',
])

/** The newest trades of the book. */
export function useTrades(options: {
  book: Book
  chainName: string | undefined
  poll: boolean
}) {
  const { book, chainName, poll } = options
  return useQuery({
    queryKey: ['market', 'trades', chainName],
    enabled: chainName !== undefined,
    queryFn: async () => {
      const { data } = await book.orders.listTrades({
        chainName: chainName as string,
        sortBy: 'indexed_at',
        sortDirection: 'desc',
        pageSize,
      })
      return data.result
    },
    refetchInterval: poll ? pollInterval : false,
    refetchOnWindowFocus: poll,
  })
}

/**
 * Whether `element` is on screen: the view polls the book only then, so a
 * page left open elsewhere does not keep asking.
 */
export function useOnScreen(element: Element | null): boolean {
  const [shown, setShown] = useState(false)
  useEffect(() => {
    if (!element) return
    const observer = new IntersectionObserver((entries) => {
      const last = entries[entries.length - 1]
      if (last) setShown(last.isIntersecting)
    })
    observer.observe(element)
    return () => observer.disconnect()
  }, [element])
  return shown
}
