// Sequence v1 meta-transaction helpers for the chain tests, written from the
// @0xsequence/wallet-contracts@1.10.0 sources: ModuleCalls.execute hashes
// `abi.encode(nonce, txs)`, ModuleAuth._subDigest wraps it with EIP-191
// `0x1901 ‖ chainId ‖ wallet`, ModuleAuth._signatureValidation reads
// `uint16 threshold` then one part per signer, and SignatureValidator
// recovers `r ‖ s ‖ v ‖ type` (type 2: eth_sign over the 32-byte hash).
import {
  type Address,
  concat,
  encodeAbiParameters,
  encodePacked,
  type Hex,
  keccak256,
  type LocalAccount,
  numberToHex,
} from 'viem'
import { sortSigners } from '../../src/emulator/chain/counterfactual.js'

/** `IModuleCalls.Transaction`. */
export type Transaction = {
  delegateCall: boolean
  revertOnError: boolean
  gasLimit: bigint
  target: Address
  value: bigint
  data: Hex
}

/** A plain call that reverts the whole batch if it fails. */
export function call(
  target: Address,
  options: { value?: bigint; data?: Hex } = {},
): Transaction {
  return {
    delegateCall: false,
    revertOnError: true,
    gasLimit: 0n,
    target,
    value: options.value ?? 0n,
    data: options.data ?? '0x',
  }
}

const transactionType = {
  type: 'tuple[]',
  components: [
    { name: 'delegateCall', type: 'bool' },
    { name: 'revertOnError', type: 'bool' },
    { name: 'gasLimit', type: 'uint256' },
    { name: 'target', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'data', type: 'bytes' },
  ],
} as const

/** `_subDigest(keccak256(abi.encode(nonce, txs)))` of `execute`. */
export function executeSubDigest(options: {
  chainId: number
  wallet: Address
  nonce: bigint
  txs: readonly Transaction[]
}): Hex {
  const { chainId, wallet, nonce, txs } = options
  const digest = keccak256(
    encodeAbiParameters([{ type: 'uint256' }, transactionType], [nonce, txs]),
  )
  return keccak256(
    encodePacked(
      ['bytes2', 'uint256', 'address', 'bytes32'],
      ['0x1901', BigInt(chainId), wallet, digest],
    ),
  )
}

/**
 * Signs `execute(txs, nonce, signature)` for a wallet. Signers with an
 * `account` sign (part `0x00 ‖ weight ‖ r ‖ s ‖ v ‖ 0x02`); the others are
 * listed by address (part `0x01 ‖ weight ‖ address`). Parts go in ascending
 * address order, the order the image hash was built in.
 */
export async function signExecute(options: {
  chainId: number
  wallet: Address
  nonce: bigint
  txs: readonly Transaction[]
  threshold: number
  signers: readonly {
    weight: number
    address: Address
    account?: LocalAccount
  }[]
}): Promise<Hex> {
  const { threshold, signers } = options
  const hash = executeSubDigest(options)
  const parts: Hex[] = [numberToHex(threshold, { size: 2 })]
  for (const { weight, address } of sortSigners({ threshold, signers })) {
    const account = signers.find(
      (signer) => signer.address.toLowerCase() === address.toLowerCase(),
    )?.account
    const head = (flag: number) =>
      concat([numberToHex(flag, { size: 1 }), numberToHex(weight, { size: 1 })])
    if (!account) {
      parts.push(head(1), address)
      continue
    }
    const signature = await account.signMessage({ message: { raw: hash } })
    parts.push(head(0), signature, '0x02')
  }
  return concat(parts)
}
