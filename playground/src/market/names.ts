import { type Address, getAddress, parseAbi } from 'viem'
import { useReadContracts } from 'wagmi'
import { shortHex } from '../ui/format.js'

const nameAbi = parseAbi(['function name() view returns (string)'])

/**
 * The names of the collections the view shows (`name()` of each ERC-721,
 * read once), so that an NFT reads `Test NFT #3`. A contract that does not
 * answer is named by its short address.
 */
export function useCollectionNames(
  contracts: readonly string[],
): (contract: string) => string {
  const unique = [...new Set(contracts.map((item) => getAddress(item)))].sort()
  const names = useReadContracts({
    allowFailure: true,
    contracts: unique.map((address) => ({
      address: address as Address,
      abi: nameAbi,
      functionName: 'name',
    })),
    query: { staleTime: Number.POSITIVE_INFINITY },
  })
  return (contract) => {
    const address = getAddress(contract)
    const read = names.data?.[unique.indexOf(address)]
    return read?.status === 'success' ? read.result : shortHex(address)
  }
}
