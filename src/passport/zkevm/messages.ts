/**
 * Message signatures of the smart-contract wallet (ERC-1271): the custody
 * key signs the wallet's sub-digest of the message hash, the co-signer's
 * part comes from the relayer after the guardian's check, and the two parts
 * make the 2-of-2 signature the wallet accepts. A wallet not deployed yet
 * is either deployed first (`forceScwDeployBeforeMessageSignature`) or its
 * signature is wrapped per ERC-6492 so verifiers can still check it.
 */
import {
  type Address,
  type Hex,
  hashMessage,
  hexToBytes,
  isAddressEqual,
  isHex,
  type TypedDataDefinition,
} from 'viem'
import {
  custodyPart,
  imageHash,
  playerWalletConfig,
  subDigest,
  typedDataDigest,
  wrapErc6492,
} from '../wire/sequence.js'
import {
  getCode,
  waitForTransaction,
  waitForTransactionReceipt,
} from './chain.js'
import type { Context } from './context.js'
import { invalidParams } from './errors.js'
import { checkMessage } from './guardian.js'
import type { ConfirmationHandle } from './seams.js'
import { sendTransactions } from './transactions.js'
import { mergeSignatures } from './walletSignature.js'

/**
 * The text of a `personal_sign` message, as the published SDK reads it:
 * hex is decoded to UTF-8 after dropping leading zero bytes; anything else
 * is taken as text.
 */
export function messageText(message: string): string {
  if (!isHex(message)) return message
  const bytes = hexToBytes(message)
  let start = 0
  while (start < bytes.length && bytes[start] === 0) start++
  return new TextDecoder().decode(bytes.slice(start))
}

/** `personal_sign([message, address])`: the wallet's ERC-1271 signature. */
export async function personalSign(
  context: Context,
  wallet: Address,
  params: unknown,
  handle: ConfirmationHandle | undefined,
): Promise<Hex> {
  const [message, address] = (Array.isArray(params) ? params : []) as [
    unknown,
    unknown,
  ]
  if (typeof message !== 'string' || typeof address !== 'string')
    throw invalidParams('personal_sign requires an address and a message')
  if (!sameAddress(address, wallet))
    throw invalidParams(
      'personal_sign requires the signer to be the from address',
    )
  const text = messageText(message)
  const chainId = await context.chainId()
  const deployed = await ensureDeployed(context, wallet)
  const digest = subDigest({ chainId, wallet, digest: hashMessage(text) })
  const signer = context.signer()
  const custodySignature = signer.signMessage({ raw: digest })
  const [, userSignature, custody] = await Promise.all([
    checkMessage(context, {
      wallet,
      chainId,
      handle,
      messageType: 'erc191',
      payload: text,
      inFlight: custodySignature,
    }),
    custodySignature,
    signer.getAddress(),
  ])
  const coSigner = await context.relayer.sign(wallet, text, chainId)
  const signature = mergeSignatures({
    coSignerParts: coSigner,
    user: { address: custody, part: custodyPart(userSignature) },
    digest,
  })
  return deployed ? signature : wrap(context, custody, signature)
}

/** The typed-data fields the provider requires. */
type TypedDataPayload = TypedDataDefinition & {
  domain: Record<string, unknown>
  types: Record<string, unknown>
  primaryType: string
  message: Record<string, unknown>
}

/**
 * Parses and checks `eth_signTypedData(_v4)`'s payload: a JSON string or an
 * object with `types`, `domain`, `primaryType` and `message`; the domain's
 * chain id (number, decimal or hex text) must be the provider's chain and
 * is normalised to a number.
 */
export function parseTypedData(
  value: unknown,
  chainId: number,
): TypedDataPayload {
  let payload: unknown = value
  if (typeof value === 'string')
    try {
      payload = JSON.parse(value)
    } catch {
      throw invalidParams('Failed to parse typed data JSON')
    }
  const typed = payload as Partial<TypedDataPayload> | null
  if (
    !typed ||
    typeof typed !== 'object' ||
    !typed.types ||
    !typed.domain ||
    !typed.primaryType ||
    !typed.message
  )
    throw invalidParams(
      'Invalid typed data argument. The following properties are required: types, domain, primaryType, message',
    )
  const domain = { ...typed.domain }
  if (domain.chainId !== undefined && domain.chainId !== null) {
    const raw = domain.chainId as unknown
    const normalised =
      typeof raw === 'string'
        ? raw.startsWith('0x')
          ? Number.parseInt(raw, 16)
          : Number.parseInt(raw, 10)
        : Number(raw)
    if (normalised !== chainId)
      throw invalidParams(`Invalid chainId, expected ${chainId}`)
    domain.chainId = normalised
  }
  return { ...(typed as TypedDataPayload), domain }
}

/** `eth_signTypedData(_v4)([address, typedData])`: the wallet's ERC-1271 signature. */
export async function signTypedData(
  context: Context,
  wallet: Address,
  params: unknown,
  handle: ConfirmationHandle | undefined,
): Promise<Hex> {
  const [address, data] = (Array.isArray(params) ? params : []) as [
    unknown,
    unknown,
  ]
  // The published SDK ignores this address and signs for its wallet
  // anyway; a signature for another account is refused here instead.
  if (typeof address !== 'string' || !sameAddress(address, wallet))
    throw invalidParams(
      'eth_signTypedData requires the signer to be the from address',
    )
  const chainId = await context.chainId()
  const payload = parseTypedData(data, chainId)
  const deployed = await ensureDeployed(context, wallet)
  const digest = subDigest({
    chainId,
    wallet,
    digest: typedDataDigest(payload),
  })
  const signer = context.signer()
  const custodySignature = signer.signMessage({ raw: digest })
  const [, userSignature, custody] = await Promise.all([
    checkMessage(context, {
      wallet,
      chainId,
      handle,
      messageType: 'eip712',
      payload,
      inFlight: custodySignature,
    }),
    custodySignature,
    signer.getAddress(),
  ])
  const coSigner = await context.relayer.signTypedData(wallet, payload, chainId)
  const signature = mergeSignatures({
    coSignerParts: coSigner,
    user: { address: custody, part: custodyPart(userSignature) },
    digest,
  })
  return deployed ? signature : wrap(context, custody, signature)
}

/**
 * Whether the wallet has code; with `forceScwDeployBeforeMessageSignature`
 * a wallet without code is deployed first by an empty call to itself.
 */
async function ensureDeployed(
  context: Context,
  wallet: Address,
): Promise<boolean> {
  const code = await getCode(context.rpc, wallet)
  if (code && code !== '0x') return true
  if (!context.config.forceScwDeployBeforeMessageSignature) return false
  const hash = await sendTransactions(context, wallet, [
    { to: wallet, value: 0n },
  ])
  // The relayer reports a hash once submitted; the signature is only
  // checkable once the deployment is mined: the transaction is fetched,
  // then waited for, on the chain client's schedule.
  await waitForTransaction(context.rpc, hash)
  await waitForTransactionReceipt(context.rpc, hash)
  return true
}

/**
 * ERC-6492 wrapping for a wallet without code, when the wallet contracts
 * are configured: the verifier deploys the wallet of {custody key,
 * co-signer} (2-of-2, weight 1 each) in a simulation, then asks it.
 */
function wrap(context: Context, custody: Address, signature: Hex): Hex {
  const contracts = context.config.walletContracts
  if (!contracts) return signature
  return wrapErc6492({
    factory: contracts.factory,
    mainModule: contracts.mainModule,
    imageHash: imageHash(
      playerWalletConfig({ custody, coSigner: contracts.coSigner }),
    ),
    signature,
  })
}

function sameAddress(a: string, b: Address) {
  try {
    return isAddressEqual(a as Address, b)
  } catch {
    return false
  }
}
