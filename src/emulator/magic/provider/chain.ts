/**
 * Chain reads and writes for the wallet screens and NFT methods: balances,
 * the user's test NFTs, transactions signed with the user's custody key.
 */
import {
  type Address,
  createPublicClient,
  encodeFunctionData,
  erc20Abi,
  formatEther,
  formatUnits,
  type Hex,
  http,
  parseAbi,
} from 'viem'
import type { Registry } from '../../registry/index.js'
import { failures } from './errors.js'
import { prepareTransaction } from './methods/eth.js'

/** ERC-721 / ERC-1155 pieces the emulator uses. */
export const nftAbi = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  'function ownerOf(uint256 tokenId) view returns (address)',
  'function balanceOf(address account, uint256 id) view returns (uint256)',
  'function mint(address to) returns (uint256)',
  'function mint(address to, uint256 id, uint256 amount, bytes data)',
  'function safeTransferFrom(address from, address to, uint256 tokenId)',
  'function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes data)',
])

/** One NFT the user holds. */
export type Nft = {
  contractAddress: string
  standard: 'ERC721' | 'ERC1155'
  tokenId: string
  quantity: string
}

function client(rpcUrl: string) {
  return createPublicClient({ transport: http(rpcUrl) })
}

/** ETH (and test ERC-20) balances of `address`, as decimal strings. */
export async function balancesOf(
  rpcUrl: string,
  address: Address,
  erc20?: string,
) {
  const chain = client(rpcUrl)
  const eth = await chain.getBalance({ address })
  const balances: {
    symbol: string
    balance: string
    decimals: number
    token?: string
  }[] = [{ symbol: 'ETH', balance: formatEther(eth), decimals: 18 }]
  if (erc20) {
    const token = erc20 as Address
    const [balance, decimals, symbol] = await Promise.all([
      chain.readContract({
        address: token,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [address],
      }),
      chain.readContract({
        address: token,
        abi: erc20Abi,
        functionName: 'decimals',
      }),
      chain.readContract({
        address: token,
        abi: erc20Abi,
        functionName: 'symbol',
      }),
    ])
    balances.push({
      symbol,
      balance: formatUnits(balance, decimals),
      decimals,
      token: erc20,
    })
  }
  return { eth, balances }
}

/** The user's NFTs among the test ERC-721 and ERC-1155, from the logs. */
export async function nftsOf(
  rpcUrl: string,
  address: Address,
  tokens: { erc721?: string | undefined; erc1155?: string | undefined },
): Promise<Nft[]> {
  const chain = client(rpcUrl)
  const nfts: Nft[] = []
  if (tokens.erc721) {
    const contract = tokens.erc721 as Address
    const logs = await chain.getLogs({
      address: contract,
      event: nftAbi[0],
      args: { to: address },
      fromBlock: 0n,
    })
    const ids = [...new Set(logs.map((log) => log.args.tokenId as bigint))]
    for (const id of ids) {
      const owner = await chain.readContract({
        address: contract,
        abi: nftAbi,
        functionName: 'ownerOf',
        args: [id],
      })
      if (owner.toLowerCase() === address.toLowerCase())
        nfts.push({
          contractAddress: contract,
          standard: 'ERC721',
          tokenId: id.toString(),
          quantity: '1',
        })
    }
  }
  if (tokens.erc1155) {
    const contract = tokens.erc1155 as Address
    const logs = await chain.getLogs({
      address: contract,
      event: nftAbi[1],
      args: { to: address },
      fromBlock: 0n,
    })
    const ids = [...new Set(logs.map((log) => log.args.id as bigint))]
    for (const id of ids) {
      const balance = await chain.readContract({
        address: contract,
        abi: nftAbi,
        functionName: 'balanceOf',
        args: [address, id],
      })
      if (balance > 0n)
        nfts.push({
          contractAddress: contract,
          standard: 'ERC1155',
          tokenId: id.toString(),
          quantity: balance.toString(),
        })
    }
  }
  return nfts
}

/**
 * Signs `tx` with the user's key, submits it and waits for a successful
 * receipt.
 *
 * @returns The transaction hash.
 * @throws {RpcFailure} -32603 if the transaction reverts.
 */
export async function sendAs(
  options: {
    rpcUrl: string
    registry: Registry
    userId: string
    from: Address
  },
  tx: { to: Address; data?: Hex; value?: bigint },
): Promise<Hex> {
  const { rpcUrl, registry, userId, from } = options
  const prepared = await prepareTransaction(rpcUrl, from, {
    to: tx.to,
    ...(tx.data ? { data: tx.data } : {}),
    ...(tx.value === undefined ? {} : { value: `0x${tx.value.toString(16)}` }),
  })
  const raw = await registry.signTransaction(userId, prepared)
  const chain = client(rpcUrl)
  const hash = await chain.sendRawTransaction({ serializedTransaction: raw })
  const receipt = await chain.waitForTransactionReceipt({
    hash,
    pollingInterval: 50,
  })
  if (receipt.status !== 'success')
    throw failures.internal(`The transaction ${hash} reverted.`)
  return hash
}

/** Calldata helpers for the test NFTs. */
export const calls = {
  mint721: (to: Address) =>
    encodeFunctionData({ abi: nftAbi, functionName: 'mint', args: [to] }),
  mint1155: (to: Address, id: bigint, amount: bigint) =>
    encodeFunctionData({
      abi: nftAbi,
      functionName: 'mint',
      args: [to, id, amount, '0x'],
    }),
  transfer721: (from: Address, to: Address, id: bigint) =>
    encodeFunctionData({
      abi: nftAbi,
      functionName: 'safeTransferFrom',
      args: [from, to, id],
    }),
  transfer1155: (from: Address, to: Address, id: bigint, amount: bigint) =>
    encodeFunctionData({
      abi: nftAbi,
      functionName: 'safeTransferFrom',
      args: [from, to, id, amount, '0x'],
    }),
}
