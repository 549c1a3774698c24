import { erc20Abi, parseAbi } from 'viem'

/**
 * The emulator's test tokens, as the page calls them: a faucet ERC-20
 * (`TEST`, 18 decimals) and an ERC-721 (`TNFT`), both with an open `mint`
 * (contracts/src/TestERC20.sol, TestERC721.sol). Minting is an ordinary
 * transaction the wallet signs, paid with the test ETH every new user of
 * the emulated wallet gets.
 */
export const testTokenAbi = [
  ...erc20Abi,
  ...parseAbi(['function mint(address to, uint256 amount)']),
] as const

export const testNftAbi = parseAbi([
  'function balanceOf(address owner) view returns (uint256)',
  'function mint(address to) returns (uint256)',
])

/** What "Get test tokens" mints: 100 TEST (18 decimals) and one NFT. */
export const faucetAmount = 100n * 10n ** 18n
