import type { Hex, PrivateKeyAccount } from 'viem'
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
