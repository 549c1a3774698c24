import {
  type Address,
  createPublicClient,
  getAddress,
  type Hex,
  http,
  toHex,
} from 'viem'
import { expect, inject, vi } from 'vitest'
import { commands } from 'vitest/browser'
import type { GuardianRulesBody } from '../../src/emulator/index.js'
import { Passport } from '../../src/passport/index.js'
import type { ZkEvmProvider } from '../../src/passport/zkevm/provider.js'
import { appConfig } from './fixtures/passportApp.js'
import {
  appOptions,
  completeInPopup,
  freshEmail,
  popupAt,
  spyPopups,
} from './passportLogin.js'

/*
 * Browser-side helpers of the game wallet's end-to-end tests
 * (passport-wallet-*.test.ts): our Passport against every emulated backend
 * (identity, platform API and guardian, relayer, key custody, confirmation
 * pages, Anvil), sign-in and registration through the real login popup,
 * and the emulator's control routes, each scoped to the test's own wallet
 * so that files running side by side never steer each other.
 */

/** The emulator's JSON line. */
export const info = inject('emulatorInfo')

/** What the emulator prints to pass as `overrides`. */
export const overrides = info.passport.overrides

/** A chain client on the emulator's public JSON-RPC gateway. */
export const chain = createPublicClient({
  transport: http(info.rpcUrl),
  pollingInterval: 100,
})

/** The wallet ABI parts the tests read. */
export const walletAbi = [
  {
    type: 'function',
    name: 'readNonce',
    stateMutability: 'view',
    inputs: [{ name: 'space', type: 'uint256' }],
    outputs: [{ name: '', type: 'uint256' }],
  },
] as const

/** A wallet's next nonce in `space` (0 while it has no code). */
export async function readNonce(wallet: Address, space = 0n): Promise<bigint> {
  const code = await chain.getCode({ address: wallet })
  if (!code || code === '0x') return 0n
  return chain.readContract({
    address: wallet,
    abi: walletAbi,
    functionName: 'readNonce',
    args: [space],
  })
}

/** Our Passport on this page against the emulator. */
export function createWallet(
  options: {
    forceScwDeployBeforeMessageSignature?: boolean
    confirmationPopup?: 'eager' | 'on-demand'
  } = {},
): Passport {
  // Silent logout (an iframe): a redirect would take the test page away.
  const base = appConfig(location.origin, { ...appOptions, mode: 'silent' })
  return new Passport({
    ...base,
    ...options,
    overrides: { ...base.overrides, ...overrides },
  })
}

/** A connected, registered player: the provider and what it emitted. */
export type Connected = {
  passport: Passport
  provider: ZkEvmProvider
  wallet: Address
  email: string
  /** Every `accountsChanged`, in order. */
  accountsChanged: Address[][]
}

/**
 * `connectEvm`, then `eth_requestAccounts` signing in through the real
 * login popup as a fresh player, who is registered.
 */
export async function connectPlayer(
  options: { passport?: Passport; label?: string; email?: string } = {},
): Promise<Connected> {
  const passport = options.passport ?? createWallet()
  const email = options.email ?? freshEmail(options.label ?? 'wallet')
  const provider = await passport.connectEvm({ announceProvider: false })
  const accountsChanged: Address[][] = []
  provider.on('accountsChanged', (accounts) => accountsChanged.push(accounts))
  const calls = spyPopups()
  const pending = provider.request({ method: 'eth_requestAccounts' })
  await completeInPopup(await popupAt(calls), email)
  const [wallet] = (await pending) as Address[]
  vi.mocked(window.open).mockRestore()
  if (!wallet) throw new Error('eth_requestAccounts answered no wallet.')
  return { passport, provider, wallet, email, accountsChanged }
}

/** Sets an account's balance through the gateway (loopback pages may). */
export async function fund(address: Address, wei: bigint): Promise<void> {
  const response = await fetch(info.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'anvil_setBalance',
      params: [address, toHex(wei)],
    }),
  })
  const body = (await response.json()) as { error?: unknown }
  if (body.error) throw new Error(`anvil_setBalance: ${JSON.stringify(body)}`)
}

/** A fresh address nobody holds. */
export function randomAddress(): Address {
  return getAddress(toHex(crypto.getRandomValues(new Uint8Array(20))))
}

/** The guardian's rules (`/dev/guardian/rules`); a field left out is off. */
export type GuardianRules = Partial<GuardianRulesBody>

/** Sets the guardian's rules of `wallet` only (`null`: back to the global ones). */
export async function setGuardianRules(
  wallet: Address,
  rules: GuardianRules | null,
): Promise<void> {
  const response = await fetch(
    `${info.passport.apiUrl}/dev/guardian/rules?wallet=${wallet}`,
    {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(rules),
    },
  )
  expect(response.status).toBe(200)
}

/** Makes the relayer's next send for `wallet` end as `outcome`. */
export async function relayerNext(
  wallet: Address,
  outcome: 'fail' | 'revert' | 'stall' | 'cancel',
  message?: string,
): Promise<void> {
  const response = await fetch(`${info.passport.relayerUrl}/dev/next`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ outcome, wallet, message }),
  })
  expect(response.status).toBe(200)
}

/** `eth_sendTransaction` of a value transfer; resolves the chain's hash. */
export function sendValue(
  provider: ZkEvmProvider,
  to: Address,
  value: bigint,
): Promise<Hex> {
  return provider.request({
    method: 'eth_sendTransaction',
    params: [{ to, value: toHex(value) } as never],
  }) as Promise<Hex>
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<{
  code: unknown
  message: unknown
}> {
  try {
    await promise
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown }
    return { code, message }
  }
  throw new Error('Expected a rejection.')
}

/**
 * The end of a wallet test: the wallet's confirmation window closes when
 * its last request ends, so none may be left behind (checked before the
 * test's own windows are closed, which happens whatever the check says,
 * through the browser too: a window left behind must fail its own test,
 * not every test after it). The check counts a window whose first page is
 * still on its way, whose close the wallet defers until that page commits.
 */
export async function noConfirmationWindowLeft(windows: {
  closeLeft(): number
}): Promise<void> {
  try {
    await commands.popupsGone(info.passport.passportDomain)
  } finally {
    windows.closeLeft()
    await commands.popupsClose(info.passport.passportDomain)
  }
}

/**
 * Records every window this page opens (under any spy a test adds) and,
 * at the end, closes those still open: a confirmation popup left open
 * would otherwise be found by the next test (or file) in this browser
 * context. Returns how many were left open.
 *
 * A window whose first page has not committed yet is left to the browser
 * ({@link noConfirmationWindowLeft} closes it there): Chromium now and then
 * loses a `close()` made as that page commits, and the window then stays
 * open on it while this page may read it closed.
 */
export function trackWindows(): { closeLeft(): number } {
  const real = window.open
  const opened: Window[] = []
  window.open = ((...args: Parameters<typeof window.open>) => {
    const opening = real.apply(window, args)
    if (opening) opened.push(opening)
    return opening
  }) as typeof window.open
  return {
    closeLeft() {
      window.open = real
      const left = opened.filter((opening) => !opening.closed)
      for (const opening of left)
        if (!firstLoadPending(opening)) opening.close()
      return left.length
    },
  }
}

/**
 * Whether a window still waits for its first page: until that page
 * commits, the window holds its initial `about:blank`, of the opener's
 * origin; once it shows a page of another origin, reading it throws.
 */
function firstLoadPending(opening: Window): boolean {
  try {
    return opening.location.href === 'about:blank'
  } catch {
    return false
  }
}
