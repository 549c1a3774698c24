/**
 * The minting backend's view of the indexer ({@link MintingIndexer}): its
 * metadata store, its sync, and the mints it indexed from a transaction.
 *
 * @packageDocumentation
 */
import type { Address } from 'viem'
import type { Indexer } from '../indexer/indexer.js'
import type { MintingIndexer } from './minting.js'

/**
 * What the minting backend needs of `indexer`.
 *
 * @example
 * ```ts
 * const minting = createMinting({ chains, indexer: mintingIndexerOf(indexer) })
 * ```
 */
export function mintingIndexerOf(indexer: Indexer): MintingIndexer {
  return {
    setMetadata(chainId, contract, tokenId, metadata) {
      indexer.metadata.set(chainId, contract, tokenId, metadata)
    },
    sync: (chainId) => indexer.sync(chainId),
    mintsOf(chainId, txHash) {
      const chain = indexer.chains.find((c) => c.chainId === chainId)
      if (!chain) return []
      const hash = txHash.toLowerCase()
      const { entries } = chain.state
      const found = []
      // The newest entries are at the end: a mint just made is there.
      for (let i = entries.length - 1; i >= 0; i--) {
        const entry = entries[i]!
        if (entry.at.txHash.toLowerCase() !== hash) {
          if (found.length > 0) break
          continue
        }
        if (
          entry.kind === 'transfer' &&
          entry.tokenId !== undefined &&
          entry.from.toLowerCase() ===
            '0x0000000000000000000000000000000000000000'
        )
          found.push({
            id: entry.id,
            contract: entry.contract.toLowerCase() as Address,
            tokenId: entry.tokenId,
            to: entry.to.toLowerCase() as Address,
          })
      }
      return found.reverse()
    },
  }
}
