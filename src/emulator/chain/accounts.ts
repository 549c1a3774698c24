import type { Address, Hex, PrivateKeyAccount } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

// PUBLIC TEST KEYS. These are the accounts Anvil (and Hardhat) fund by default,
// derived from the well-known mnemonic below. Everyone knows these private
// keys: never send real funds to them or use them outside a local chain.

/** The mnemonic Anvil derives its default accounts from (public). */
export const anvilMnemonic =
  'test test test test test test test test test test test junk'

/**
 * Private keys of the first ten Anvil accounts, `m/44'/60'/0'/0/{0..9}` of
 * {@link anvilMnemonic}. Listed rather than derived because deriving from the
 * mnemonic takes tens of milliseconds per account.
 */
export const anvilPrivateKeys = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
  '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a',
  '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba',
  '0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e',
  '0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356',
  '0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97',
  '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6',
] as const satisfies readonly Hex[]

/** The first ten Anvil accounts as viem local accounts (public test keys). */
export const anvilAccounts: readonly PrivateKeyAccount[] = anvilPrivateKeys.map(
  (key) => privateKeyToAccount(key),
)

/**
 * Anvil account 0 (`0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266`), which
 * deploys the local contracts. Public test key.
 */
export const deployer: PrivateKeyAccount = privateKeyToAccount(
  anvilPrivateKeys[0],
)

/**
 * Anvil account 5 (`0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc`), the game
 * wallet's co-signing key: the `CoSigner` contract accepts its signatures,
 * and the emulated relayer signs with it. It never sends a transaction.
 * Public test key.
 */
export const coSignerKey: PrivateKeyAccount = privateKeyToAccount(
  anvilPrivateKeys[5],
)

/**
 * Anvil account 6 (`0x976EA74026E726554dB657fA54763abd0C3a0aa9`), the
 * platform's minter: it holds the minter role of the ERC-721 and ERC-1155
 * collections the emulator deploys, and sends the mints of the emulated
 * minting API; it is also a registrar of the operator allowlist those
 * collections check, so that the platform can allowlist a contract wallet.
 * No other part of the emulator sends from it, so one service alone orders
 * its nonces. Public test key.
 */
export const minter: PrivateKeyAccount = privateKeyToAccount(
  anvilPrivateKeys[6],
)

/**
 * Anvil account 7 (`0x14dC79964da2C08b23698B3D3cc7Ca32193d9955`), the
 * signed zone's signer: the emulated order book signs the SIP-7 extra data
 * of its fulfilment data with it, and the zone accepts its signatures. It
 * never sends a transaction. Public test key.
 */
export const zoneSigner: PrivateKeyAccount = privateKeyToAccount(
  anvilPrivateKeys[7],
)

/**
 * Anvil account 8 (`0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f`), the game
 * wallet relayer's submitter: it sends the co-signed `execute` (or the
 * deploy-and-execute batch) and pays the gas. No other part of the emulator
 * sends from it, so the relayer alone orders its nonces. Public test key.
 */
export const relayerSubmitter: PrivateKeyAccount = privateKeyToAccount(
  anvilPrivateKeys[8],
)

/**
 * Anvil account 9 (`0xa0Ee7A142d267C1f36714E4a8F75612F20a79720`), the gas
 * sponsor: it submits the iframe wallet's gasless transactions and pays
 * their gas. No other part of the emulator sends from it. Public test key.
 */
export const gasSponsor: PrivateKeyAccount = privateKeyToAccount(
  anvilPrivateKeys[9],
)

/**
 * The Anvil accounts the emulator uses, by role, as its JSON line lists
 * them (`accounts`). Accounts 1 to 4 are none of them: they are left to
 * dApps and their tests ({@link dappAccountIndexes}).
 */
export const emulatorAccounts = {
  /** Deploys the contracts when a chain starts (account 0). */
  deployer: { index: 0, address: deployer.address },
  /** The game wallet's co-signing key; signs, never sends (account 5). */
  coSigner: { index: 5, address: coSignerKey.address },
  /** Mints on the platform's collections (account 6). */
  minter: { index: 6, address: minter.address },
  /** Signs the signed zone's extra data; never sends (account 7). */
  zoneSigner: { index: 7, address: zoneSigner.address },
  /** Submits the game wallet relayer's transactions (account 8). */
  relayer: { index: 8, address: relayerSubmitter.address },
  /** Pays the gas of the iframe wallet's sponsored calls (account 9). */
  gasSponsor: { index: 9, address: gasSponsor.address },
} as const satisfies Record<string, { index: number; address: Address }>

/** The Anvil accounts no emulator service uses: dApps' own (1 to 4). */
export const dappAccountIndexes = [1, 2, 3, 4] as const
