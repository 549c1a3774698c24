import { type Address, getAddress } from 'viem'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { spyPopups } from './passportLogin.js'
import { connectPlayer, info, readNonce } from './passportWallet.js'

/*
 * Session activity against the emulated platform API: the check after
 * `eth_requestAccounts`, and the background transaction it asks for, sent
 * in nonce space 1 without a popup and mined.
 */

const { apiUrl } = info.passport
const clientId = info.passport.clientId

type Check = { clientId: string; wallet: Address; checkCount: number }

async function setRule(rule: Record<string, unknown> | null) {
  const response = await fetch(`${apiUrl}/dev/session-activity`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientId, rule }),
  })
  expect(response.status).toBe(200)
}

async function checksOf(wallet: Address): Promise<Check[]> {
  const response = await fetch(
    `${apiUrl}/dev/session-activity?clientId=${clientId}`,
  )
  const { checks } = (await response.json()) as { checks: Check[] }
  return checks.filter((check) => getAddress(check.wallet) === wallet)
}

beforeEach(() => localStorage.clear())
afterEach(async () => {
  vi.restoreAllMocks()
  await setRule(null)
})

describe('session activity', () => {
  test('behavior: after eth_requestAccounts the check arrives and the background call is mined in nonce space 1, no popup; a 404 stops', async () => {
    // Registered with no rule: the check is 404, nothing is sent.
    const { provider, wallet } = await connectPlayer({ label: 'activity' })
    await expect.poll(async () => (await checksOf(wallet)).length).toBe(1)
    expect(await readNonce(wallet, 1n)).toBe(0n)

    // A call of a real no-argument function of the test ERC-20.
    await setRule({
      contractAddress: info.contracts.erc20,
      functionName: 'totalSupply',
    })
    const calls = spyPopups()
    expect(await provider.request({ method: 'eth_requestAccounts' })).toEqual([
      wallet,
    ])
    await expect.poll(async () => (await checksOf(wallet)).length).toBe(2)
    await expect.poll(() => readNonce(wallet, 1n), { timeout: 15_000 }).toBe(1n)
    // The foreground nonce space is untouched, and no popup opened.
    expect(await readNonce(wallet, 0n)).toBe(0n)
    expect(calls).toEqual([])

    // No rule: the next check is 404 and nothing more is sent.
    // (A run still going, waiting for the relayer's hash, is joined rather
    // than restarted: ask until a new run checks.)
    await setRule(null)
    await expect
      .poll(
        async () => {
          expect(
            await provider.request({
              method: 'im_addSessionActivity',
            } as never),
          ).toBeNull()
          return (await checksOf(wallet)).length
        },
        { timeout: 10_000, interval: 200 },
      )
      .toBeGreaterThanOrEqual(3)
    expect(await readNonce(wallet, 1n)).toBe(1n)
    expect(await readNonce(wallet, 0n)).toBe(0n)
  })
})
