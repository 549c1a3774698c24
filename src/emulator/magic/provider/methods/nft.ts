/**
 * NFT methods on the emulator's test tokens. Purchase and checkout mint
 * one test NFT to the user (the user's key sends the public `mint`);
 * transfer really transfers. Each shows the `nft-checkout` screen; `close`
 * resolves `{ status: 'cancelled' }`, success `{ status: 'processed' }`.
 *
 * A checkout with `walletProvider: 'web3modal'` (the SDK's third-party
 * wallet mode) is paid by the external wallet instead: the flow emits
 * `nft-checkout-initiated` with the mint transaction for `walletAddress`,
 * and the host answers `nft-checkout-success` with the hash it sent (the
 * receipt is checked on chain) or `nft-checkout-failure` (`declined`).
 */
import { type Address, isAddress, isAddressEqual } from 'viem'
import { methods } from '../../../../magic/wire/methods.js'
import { calls, sendAs } from '../chain.js'
import type { Context, Handler } from '../context.js'
import { failures } from '../errors.js'
import { requireSigner } from '../session.js'
import { callChain, rpcUrlOf } from './eth.js'

type Target = {
  contract: Address
  standard: 'ERC721' | 'ERC1155'
  tokenId: bigint
  quantity: bigint
}

/** Reads `{ contractAddress, tokenId, quantity }` (purchase: under `nft`). */
function targetOf(ctx: Context, minting: boolean): Target {
  const source = (
    typeof ctx.options.nft === 'object' && ctx.options.nft !== null
      ? ctx.options.nft
      : ctx.options
  ) as Record<string, unknown>
  const { erc721, erc1155 } = ctx.deps.tokens
  const given = source.contractAddress ?? source.contractId
  const contract =
    typeof given === 'string' && isAddress(given)
      ? given
      : minting
        ? erc721
        : undefined
  const standard =
    contract &&
    erc1155 &&
    isAddressEqual(contract as Address, erc1155 as Address)
      ? 'ERC1155'
      : contract &&
          erc721 &&
          isAddressEqual(contract as Address, erc721 as Address)
        ? 'ERC721'
        : undefined
  if (!contract || !standard)
    throw failures.invalidParams(
      `${ctx.method}: the contract must be one of the emulator's test NFTs (${erc721}, ${erc1155}).`,
    )
  let tokenId: bigint
  let quantity: bigint
  try {
    tokenId = BigInt((source.tokenId as string | number | undefined) ?? 1)
    quantity = BigInt((source.quantity as string | number | undefined) ?? 1)
  } catch {
    throw failures.invalidParams(
      `${ctx.method}: tokenId/quantity are not integers.`,
    )
  }
  if (quantity < 1n)
    throw failures.invalidParams(`${ctx.method}: quantity must be at least 1.`)
  return { contract: contract as Address, standard, tokenId, quantity }
}

async function confirm(
  ctx: Context,
  action: 'purchase' | 'checkout' | 'transfer',
  target: Target,
  recipient?: string,
): Promise<boolean> {
  ctx.screen('nft-checkout', {
    action,
    contractAddress: target.contract,
    tokenId: target.tokenId.toString(),
    quantity: target.quantity.toString(),
    ...(recipient === undefined ? {} : { recipient }),
  })
  const answer = await ctx.waitFor(['confirm', 'close'])
  return answer.eventType === 'confirm'
}

function mintWith(action: 'purchase' | 'checkout'): Handler {
  return async (ctx) => {
    const user = requireSigner(ctx)
    const target = targetOf(ctx, true)
    if (!(await confirm(ctx, action, target))) return { status: 'cancelled' }
    await sendAs(
      {
        rpcUrl: rpcUrlOf(ctx),
        registry: ctx.deps.registry,
        userId: user.id,
        from: user.address,
      },
      {
        to: target.contract,
        data:
          target.standard === 'ERC721'
            ? calls.mint721(user.address)
            : calls.mint1155(user.address, target.tokenId, target.quantity),
      },
    )
    return { status: 'processed' }
  }
}

const transfer: Handler = async (ctx) => {
  const user = requireSigner(ctx)
  const target = targetOf(ctx, false)
  const { recipient } = ctx.options
  if (typeof recipient !== 'string' || !isAddress(recipient))
    throw failures.invalidParams('magic_nft_transfer: expected a recipient.')
  if (!(await confirm(ctx, 'transfer', target, recipient)))
    return { status: 'cancelled' }
  await sendAs(
    {
      rpcUrl: rpcUrlOf(ctx),
      registry: ctx.deps.registry,
      userId: user.id,
      from: user.address,
    },
    {
      to: target.contract,
      data:
        target.standard === 'ERC721'
          ? calls.transfer721(user.address, recipient, target.tokenId)
          : calls.transfer1155(
              user.address,
              recipient,
              target.tokenId,
              target.quantity,
            ),
    },
  )
  return { status: 'processed' }
}

/**
 * Checkout paid by the host's external wallet (see the header). The user
 * may disconnect that wallet on the checkout screen, before or while it
 * pays: the flow emits `disconnect` (the host leaves third-party wallet
 * mode) and ends `cancelled`.
 */
const checkoutWithWallet: Handler = async (ctx) => {
  const { walletAddress } = ctx.options
  if (typeof walletAddress !== 'string' || !isAddress(walletAddress))
    throw failures.invalidParams(
      'magic_nft_checkout: a third-party wallet checkout needs the walletAddress.',
    )
  const target = targetOf(ctx, true)
  const disconnected = () => {
    ctx.emit('disconnect')
    return { status: 'cancelled' }
  }
  ctx.screen('nft-checkout', {
    action: 'checkout',
    contractAddress: target.contract,
    tokenId: target.tokenId.toString(),
    quantity: target.quantity.toString(),
    wallet: walletAddress,
  })
  const choice = await ctx.waitFor(['confirm', 'close', 'disconnect'])
  if (choice.eventType === 'disconnect') return disconnected()
  if (choice.eventType === 'close') return { status: 'cancelled' }
  ctx.emit('nft-checkout-initiated', {
    from: walletAddress,
    to: target.contract,
    data:
      target.standard === 'ERC721'
        ? calls.mint721(walletAddress)
        : calls.mint1155(walletAddress, target.tokenId, target.quantity),
  })
  const answer = await ctx.waitFor([
    'nft-checkout-success',
    'nft-checkout-failure',
    'disconnect',
  ])
  if (answer.eventType === 'disconnect') return disconnected()
  if (answer.eventType === 'nft-checkout-failure') return { status: 'declined' }
  const receipt = await receiptOf(rpcUrlOf(ctx), answer.args)
  const paid =
    receipt?.status === '0x1' &&
    typeof receipt.to === 'string' &&
    isAddressEqual(receipt.to as Address, target.contract)
  return { status: paid ? 'processed' : 'declined' }
}

/**
 * The receipt of `hash`, waiting up to 10 s for it to be mined (the host
 * answers as soon as its wallet has the hash); `null` if it never is.
 */
async function receiptOf(
  rpcUrl: string,
  hash: unknown,
): Promise<{ status?: string; to?: string } | null> {
  if (typeof hash !== 'string') return null
  for (let attempt = 0; attempt < 100; attempt++) {
    const receipt = (await callChain(rpcUrl, 'eth_getTransactionReceipt', [
      hash,
    ])) as { status?: string; to?: string } | null
    if (receipt) return receipt
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return null
}

const checkout: Handler = (ctx) =>
  ctx.options.walletProvider === 'web3modal'
    ? checkoutWithWallet(ctx)
    : mintWith('checkout')(ctx)

/** NFT methods by name. */
export const nftHandlers: Record<string, Handler> = {
  [methods.nftPurchase]: mintWith('purchase'),
  [methods.nftCheckout]: checkout,
  [methods.nftTransfer]: transfer,
}
