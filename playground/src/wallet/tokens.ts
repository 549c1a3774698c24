import {
  type Address,
  createTestClient,
  erc20Abi,
  http,
  parseAbi,
  parseEther,
  publicActions,
} from 'viem'

/**
 * The emulator's test tokens, as the page calls them: a faucet ERC-20
 * (`TEST`, 18 decimals) and an ERC-721 (`TNFT`), both with an open `mint`
 * (contracts/src/TestERC20.sol, TestERC721.sol). Minting is an ordinary
 * transaction the wallet signs.
 */
export const testTokenAbi = [
  ...erc20Abi,
  ...parseAbi(['function mint(address to, uint256 amount)']),
] as const

export const testNftAbi = parseAbi([
  'function balanceOf(address owner) view returns (uint256)',
  'function mint(address to) returns (uint256)',
])

/** What "Mint 100 TEST" mints: 100 TEST (18 decimals). */
export const faucetAmount = 100n * 10n ** 18n

/** What the dev-chain faucet adds: 1 ETH. */
export const faucetEth = parseEther('1')

/**
 * The dev chain's ETH faucet: adds `wei` to `address` with Anvil's
 * `anvil_setBalance`, which the emulator's chain gateway answers for
 * loopback pages only. A hosted chain has no such method: it is a dev
 * helper, and the page labels it so. A smart-contract wallet needs ETH of
 * its own to send value; the emulator funds only the player's signer key.
 */
export async function addTestEth(
  rpcUrl: string,
  address: Address,
  wei: bigint,
): Promise<void> {
  const client = createTestClient({
    mode: 'anvil',
    transport: http(rpcUrl),
  }).extend(publicActions)
  const balance = await client.getBalance({ address })
  await client.setBalance({ address, value: balance + wei })
}
