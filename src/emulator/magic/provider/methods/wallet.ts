/**
 * Wallet UI methods: the wallet screens (address, real balances, a real
 * ETH transfer, the emulated on-ramp, the user's test NFTs), reveal key,
 * login inside the iframe (`mc_login`, `eth_requestAccounts`), and the
 * user-info consent.
 */
import { type Address, getAddress, isAddress, parseEther } from 'viem'
import { rpcCodes } from '../../../../magic/wire/codes.js'
import * as Events from '../../../../magic/wire/events.js'
import { methods } from '../../../../magic/wire/methods.js'
import { isEmailAddress } from '../../../contact.js'
import { balancesOf, nftsOf, sendAs } from '../chain.js'
import type { Context, Handler } from '../context.js'
import { failures, isUserCancel, RpcFailure } from '../errors.js'
import { login, requireSigner, requireUser } from '../session.js'
import { emailCodeLogin } from './auth.js'
import { rpcUrlOf } from './eth.js'

/** Shows a screen until the user closes it; resolves `true`. */
async function untilClosed(ctx: Context) {
  await ctx.waitFor(['close'])
  return true
}

const wallet: Handler = async (ctx) => {
  const user = requireUser(ctx)
  const { balances } = await balancesOf(rpcUrlOf(ctx), user.address)
  ctx.screen('wallet', {
    address: user.address,
    balance: balances[0]?.balance ?? '0',
    chainId: ctx.deps.chain.chainId,
  })
  return untilClosed(ctx)
}

const showAddress: Handler = async (ctx) => {
  const user = requireUser(ctx)
  ctx.screen('address', { address: user.address })
  return untilClosed(ctx)
}

const showBalances: Handler = async (ctx) => {
  const user = requireUser(ctx)
  const { balances } = await balancesOf(
    rpcUrlOf(ctx),
    user.address,
    ctx.deps.tokens.erc20,
  )
  ctx.screen('balances', {
    address: user.address,
    chainId: ctx.deps.chain.chainId,
    balances,
  })
  return untilClosed(ctx)
}

/**
 * Send tokens: each `send-tokens` `{ to, amount }` (ETH) is signed with the
 * user's key and mined; the screen then shows the hash (or the error).
 * Resolves `true` on `close`.
 */
const showSendTokens: Handler = async (ctx) => {
  const user = requireSigner(ctx)
  const rpcUrl = rpcUrlOf(ctx)
  const balance = async () =>
    (await balancesOf(rpcUrl, user.address)).balances[0]?.balance ?? '0'
  ctx.screen('send-tokens', {
    address: user.address,
    balance: await balance(),
  })
  for (;;) {
    const answer = await ctx.waitFor(['send-tokens', 'close'])
    if (answer.eventType === 'close') return true
    const { to, amount } = (answer.args ?? {}) as {
      to?: unknown
      amount?: unknown
    }
    let result: { hash?: string; error?: string }
    try {
      if (typeof to !== 'string' || !isAddress(to))
        throw new Error('The recipient is not an address.')
      if (typeof amount !== 'string' || !/^\d+(\.\d+)?$/.test(amount))
        throw new Error('The amount is not a number of ETH.')
      const hash = await sendAs(
        {
          rpcUrl,
          registry: ctx.deps.registry,
          userId: user.id,
          from: user.address,
        },
        { to: to as Address, value: parseEther(amount) },
      )
      result = { hash }
    } catch (error) {
      result = {
        error: (error instanceof Error ? error.message : String(error)).split(
          '\n',
        )[0] as string,
      }
    }
    ctx.screen('send-tokens', {
      address: user.address,
      balance: await balance(),
      ...result,
    })
  }
}

const showOnRamp: Handler = async (ctx) => {
  const user = requireUser(ctx)
  ctx.screen('onramp', { address: user.address, emulated: true })
  return untilClosed(ctx)
}

const showNfts: Handler = async (ctx) => {
  const user = requireUser(ctx)
  const nfts = await nftsOf(rpcUrlOf(ctx), user.address, ctx.deps.tokens)
  ctx.screen('nfts', { address: user.address, nfts })
  return untilClosed(ctx)
}

/** Shows the private key in the iframe only; resolves `true`. */
const revealKey: Handler = async (ctx) => {
  const user = requireSigner(ctx)
  ctx.screen('reveal-key', {
    privateKey: ctx.deps.registry.revealKey(user.id),
  })
  return untilClosed(ctx)
}

/**
 * `mc_login` / `eth_requestAccounts`: the accounts at once when logged in;
 * else the iframe's login (`submit-email`, then the email code, second
 * factor and device approval). Resolves to `[address]`.
 *
 * When the user cancels any of these login screens, the user declined to
 * connect: the flow fails as the real provider does, with the exact
 * message `User denied account access.`, on which the client deletes every
 * stored `ds_*` device share (the published SDK's behaviour).
 *
 * The code is -10012 UserRejectedAction ({@link failures.userDenied}). The
 * published protocol does not say which code comes with that message; the
 * message is what clients act on. EIP-1193's 4001 was considered, but it
 * is not a provider RPC code: clients that follow the published SDK report
 * it as -32603 (internal error), so apps, and our wagmi connector (which
 * maps 4001 / -10012 / -10014 to UserRejectedRequestError), would no
 * longer see a user rejection. -10012 is kept by the client and reads as a
 * rejection. A time-out stays -10014, as in every flow.
 */
const connect: Handler = async (ctx) => {
  if (ctx.user) return [ctx.user.address]
  try {
    return await loginInIframe(ctx)
  } catch (error) {
    throw isUserCancel(error) ? failures.userDenied() : error
  }
}

/**
 * The login screens of {@link connect}; resolves to `[address]`.
 *
 * With `enabledWallets.web3modal` on (the published SDK sends the app's
 * `thirdPartyWallets.enabledWallets`), the screen also offers the host's
 * external wallet, as the hosted login page does: picking it emits
 * `web3modal_selected`, and the host answers `wallet_connected` with the
 * wallet's address (the result: that address, with no session here; the
 * host's wallet answers from then on) or `wallet_rejected` (back to the
 * screen). `autoPromptThirdPartyWallets` picks it at once; a rejection then
 * ends the request (-32603, as the hosted page answers it). Other
 * `enabledWallets` entries are ignored: the hosted page offers only that
 * one.
 */
async function loginInIframe(ctx: Context): Promise<[Address]> {
  const enabled = ctx.options.enabledWallets
  const external =
    typeof enabled === 'object' &&
    enabled !== null &&
    (enabled as Record<string, unknown>).web3modal === true
  const wallets = external ? { wallets: ['web3modal' as const] } : {}
  let prompt = external && ctx.options.autoPromptThirdPartyWallets === true
  let invalid = false
  for (;;) {
    if (prompt) {
      prompt = false
      const address = await connectWallet(ctx)
      if (address) return [address]
      if (ctx.options.autoPromptThirdPartyWallets === true)
        throw new RpcFailure(
          rpcCodes.InternalError,
          'User canceled the action.',
        )
      continue
    }
    ctx.screen('login', {
      ...(invalid ? { error: 'invalid' } : {}),
      ...wallets,
    })
    const answer = await ctx.waitFor([
      'submit-email',
      'cancel',
      ...(external ? (['connect-wallet'] as const) : []),
    ])
    if (answer.eventType === 'cancel') throw failures.cancelled()
    if (answer.eventType === 'connect-wallet') {
      prompt = true
      continue
    }
    const email =
      typeof answer.args === 'string' ? answer.args.trim().toLowerCase() : ''
    if (!isEmailAddress(email)) {
      invalid = true
      continue
    }
    const user = await emailCodeLogin(ctx, email)
    await login(ctx, user, undefined, { via: 'connect' })
    return [user.address]
  }
}

/**
 * The external-wallet exchange of {@link loginInIframe}: the wallet's
 * address once the host connected it, `undefined` when it rejected.
 */
async function connectWallet(ctx: Context): Promise<Address | undefined> {
  ctx.screen('login', { wallets: ['web3modal'], connecting: true })
  ctx.emit(Events.connectWallet.selected)
  const answer = await ctx.waitFor([
    Events.connectWallet.connected,
    Events.connectWallet.rejected,
    'cancel',
  ])
  if (answer.eventType === 'cancel') throw failures.cancelled()
  if (
    answer.eventType === Events.connectWallet.connected &&
    typeof answer.args === 'string' &&
    isAddress(answer.args)
  )
    return getAddress(answer.args)
  return undefined
}

/** `mc_request_user_info`: asks consent, resolves `{ email }`. */
const requestUserInfo: Handler = async (ctx) => {
  const user = requireUser(ctx)
  ctx.screen('user-info', { email: user.email ?? '' })
  const answer = await ctx.waitFor(['share', 'cancel'])
  if (answer.eventType === 'cancel') throw failures.cancelled()
  return { email: user.email ?? null }
}

/**
 * `magic_get_multichain_public_address` ({ chain }), the method of the
 * published SDK's `MultichainExtension.getPublicAddress`: the user's
 * address for `ETH` (also when `chain` is missing). The emulator holds
 * keys for no other chain: any other `chain` is -32602.
 */
const multichainAddress: Handler = async (ctx) => {
  const user = requireUser(ctx)
  const { chain = 'ETH' } = ctx.options
  if (chain !== 'ETH')
    throw failures.invalidParams(
      `${ctx.method}: the emulator holds keys for chain ETH only, not ${
        Array.isArray(chain)
          ? 'an array'
          : typeof chain === 'object' && chain !== null
            ? 'an object'
            : JSON.stringify(chain)
      }.`,
    )
  return user.address
}

/** Wallet UI methods by name. */
export const walletHandlers: Record<string, Handler> = {
  [methods.showUi]: wallet,
  [methods.showAddress]: showAddress,
  [methods.showBalances]: showBalances,
  [methods.showSendTokensUi]: showSendTokens,
  [methods.showOnRamp]: showOnRamp,
  [methods.showNfts]: showNfts,
  [methods.revealKey]: revealKey,
  [methods.login]: connect,
  [methods.requestAccounts]: connect,
  [methods.requestUserInfo]: requestUserInfo,
  [methods.getMultichainPublicAddress]: multichainAddress,
}
