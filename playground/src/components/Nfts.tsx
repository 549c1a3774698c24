import { useQuery } from '@tanstack/react-query'
import { createConfig, mr } from 'embedded-wallets/api'
import { useEffect, useMemo } from 'react'
import type { Address } from 'viem'
import { useBlockNumber } from 'wagmi'
import type { Info } from '../emulator.js'
import { useFailures } from '../ui/errors.js'
import { LongValue } from '../ui/LongValue.js'
import '../wallet/wallet.css'

/** One NFT the account owns, as its card shows it. */
type Item = {
  key: string
  contract: string
  tokenId: string
  name: string | null
  image: string | null
  collection: string | null
}

/**
 * The platform's indexer clients for the emulator's API, as a dApp makes
 * them (`embedded-wallets/api`).
 */
function useIndexer(apiUrl: string) {
  return useMemo(() => {
    const config = createConfig({ basePath: apiUrl })
    return {
      chains: new mr.ChainsApi(config),
      nfts: new mr.NftsApi(config),
      collections: new mr.CollectionsApi(config),
    }
  }, [apiUrl])
}

/**
 * The NFTs the account owns, as items (image or a placeholder drawn from
 * the token id, name, collection, token id), from the platform's indexer
 * API. The indexer follows the chain a little behind it: the list is read
 * again on every new block, a second after it, and every few seconds.
 */
export function Nfts(props: { info: Info; address: Address }) {
  const { info, address } = props
  const indexer = useIndexer(info.passport.apiUrl)
  const { report } = useFailures('wallet')
  const block = useBlockNumber({ watch: true })

  // The platform names chains (`imtbl-zkevm-testnet`); its chains route
  // says which name the emulator's chain has.
  const chainName = useQuery({
    queryKey: ['indexer-chain-name', info.passport.apiUrl, info.chainId],
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async () => {
      const { data } = await indexer.chains.listChains()
      const found = data.result.find(
        (chain) => chain.id === `eip155:${info.chainId}`,
      )
      if (!found)
        throw new Error(
          `The indexer does not list the chain eip155:${info.chainId}.`,
        )
      return found.name
    },
  })

  const items = useQuery({
    queryKey: ['indexer-nfts', info.passport.apiUrl, chainName.data, address],
    enabled: chainName.data !== undefined,
    // A backstop for an indexer more than a second behind a quiet chain.
    refetchInterval: 5_000,
    queryFn: async (): Promise<Item[]> => {
      const name = chainName.data as string
      const [nfts, collections] = await Promise.all([
        indexer.nfts.listNFTsByAccountAddress({
          chainName: name,
          accountAddress: address,
          pageSize: 200,
        }),
        indexer.collections.listCollectionsByNFTOwner({
          chainName: name,
          accountAddress: address,
          pageSize: 200,
        }),
      ])
      const names = new Map(
        collections.data.result.map((collection) => [
          collection.contract_address.toLowerCase(),
          collection.name,
        ]),
      )
      return nfts.data.result.map((nft) => ({
        key: `${nft.contract_address}:${nft.token_id}`,
        contract: nft.contract_address,
        tokenId: nft.token_id,
        name: nft.name,
        image: nft.image,
        collection: names.get(nft.contract_address.toLowerCase()) ?? null,
      }))
    },
  })

  // Read again on every block; the indexer may be a block behind the
  // node, so a block's NFTs may show a poll later.
  const { refetch } = items
  useEffect(() => {
    if (block.data === undefined) return
    void refetch()
    const again = setTimeout(() => void refetch(), 1_000)
    return () => clearTimeout(again)
  }, [block.data, refetch])

  const error = chainName.error ?? items.error
  useEffect(() => {
    if (error) report('Reading your NFTs from the indexer', error)
  }, [error, report])

  if (!items.data)
    return (
      <p className="muted" data-testid="nfts-loading">
        {error ? 'The indexer did not answer.' : 'Reading your NFTs…'}
      </p>
    )
  if (items.data.length === 0)
    return (
      <p className="muted" data-testid="nfts-empty">
        No NFTs yet: mint a test NFT and it shows up here.
      </p>
    )
  return (
    <ul className="nft-grid" data-testid="nfts">
      {items.data.map((item) => (
        <NftCard key={item.key} item={item} />
      ))}
    </ul>
  )
}

function NftCard(props: { item: Item }) {
  const { item } = props
  return (
    <li
      className="nft-card"
      data-testid="nft"
      data-contract={item.contract}
      data-token-id={item.tokenId}
    >
      {item.image && /^(https?:|data:image\/)/.test(item.image) ? (
        <img className="nft-image" src={item.image} alt={item.name ?? ''} />
      ) : (
        <Placeholder seed={`${item.contract}:${item.tokenId}`} />
      )}
      <strong className="nft-name" data-testid="nft-name">
        {item.name ?? `#${item.tokenId}`}
      </strong>
      <span className="muted" data-testid="nft-collection">
        {item.collection ?? 'Unnamed collection'}
      </span>
      <span className="nft-id">
        Token id{' '}
        <span data-testid="nft-token-id">
          {item.tokenId.length > 12 ? (
            <LongValue value={item.tokenId} keep={4} />
          ) : (
            item.tokenId
          )}
        </span>
      </span>
    </li>
  )
}

/**
 * An image for an NFT without one: two colours and an angle drawn from
 * its collection and token id, so that the same NFT always looks the same
 * and two NFTs rarely alike.
 */
function Placeholder(props: { seed: string }) {
  let hash = 2166136261
  for (const char of props.seed) {
    hash ^= char.codePointAt(0) ?? 0
    hash = Math.imul(hash, 16777619) >>> 0
  }
  const hue = hash % 360
  const angle = (hash >>> 9) % 360
  const id = props.seed.split(':')[1] ?? ''
  return (
    <div
      className="nft-image nft-placeholder"
      aria-hidden="true"
      data-testid="nft-placeholder"
      style={{
        background: `linear-gradient(${angle}deg, hsl(${hue} 70% 55%), hsl(${(hue + 60) % 360} 70% 40%))`,
      }}
    >
      <span>#{id.length > 6 ? `${id.slice(0, 5)}…` : id}</span>
    </div>
  )
}
