import {
  type Address,
  createPublicClient,
  createWalletClient,
  http,
  parseAbi,
  parseEther,
} from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { anvilAccounts } from '../../src/emulator/chain/accounts.js'
import {
  call,
  createDevice,
  open,
} from '../../src/emulator/magic/provider/testkit.js'
import { slots } from '../../src/emulator/ports.js'
import {
  startWorkerEmulator,
  type TestKit,
  TestKitError,
  WaitTimeoutError,
  workerPortStripe,
} from '../../src/testing/index.js'

/** Accounts 2 and 3: left to tests by the emulator, and not the kit's sender. */
const alice = anvilAccounts[2] as (typeof anvilAccounts)[number]
const bob = anvilAccounts[3] as (typeof anvilAccounts)[number]
const erc721Abi = parseAbi(['function ownerOf(uint256) view returns (address)'])

let first: startWorkerEmulator.ReturnType
let second: startWorkerEmulator.ReturnType

beforeAll(async () => {
  // Side by side, as two workers of a test runner start them.
  ;[first, second] = await Promise.all([
    startWorkerEmulator({ workerIndex: 0 }),
    startWorkerEmulator({ workerIndex: 1 }),
  ])
})

afterAll(async () => {
  await Promise.all([first?.stop(), second?.stop()])
})

function chainOf(kit: TestKit) {
  return createPublicClient({ transport: http(kit.info.rpcUrl) })
}

/**
 * Starts a real email-code login at the iframe wallet's provider, as the
 * published SDK's iframe does; `finish(code)` answers it with the code.
 */
async function startEmailLogin(kit: TestKit, email: string) {
  const target = {
    request: (path: string, init?: RequestInit) =>
      fetch(`${kit.info.magic.endpoint}${path}`, init),
  }
  const device = await createDevice()
  const flow = await open(
    target,
    'magic_auth_login_with_email_otp',
    [{ email, showUI: false }],
    { device },
  )
  await flow.event('email-otp-sent')
  return {
    async finish(code: string) {
      expect(await flow.answer('verify-email-otp', code)).toBe(200)
      const { response } = await flow.done()
      expect(response.result).toEqual(expect.any(String))
      const { result } = await call(target, 'magic_get_info', [], { device })
      return (result as { publicAddress: Address }).publicAddress
    },
  }
}

describe('startWorkerEmulator', () => {
  test("behavior: two workers get their own ports, each in its worker's stripe, and their own chains", () => {
    const count = slots.length + 1
    for (const [workerIndex, { info }] of [first, second].entries()) {
      const base = Number(new URL(info.mailbox).port)
      const { first: from, last } = workerPortStripe({ workerIndex, count })
      expect(base).toBeGreaterThanOrEqual(from)
      expect(base).toBeLessThanOrEqual(last)
      // Anvil's gateway takes the port after the services'.
      expect(Number(new URL(info.rpcUrl).port)).toBe(base + slots.length)
    }
    expect(first.kit.info).toBe(first.info)
  })

  test('behavior: a user logged in on one emulator is unknown to the other', async () => {
    const email = 'ada@example.com'
    const login = await startEmailLogin(first.kit, email)
    const address = await login.finish(await first.kit.waitForCode(email))
    // The provider funds a new user's wallet on its chain.
    expect(await chainOf(first.kit).getBalance({ address })).toBe(
      parseEther('100'),
    )
    expect(await chainOf(second.kit).getBalance({ address })).toBe(0n)
    expect(await second.kit.mailbox(email)).toEqual([])
    // On the other emulator the same email starts from nothing: its own
    // code, its own session.
    const again = await startEmailLogin(second.kit, email)
    const [message] = await second.kit.mailbox(email)
    expect(message).toMatchObject({ to: email, kind: 'email-otp' })
    await again.finish(await second.kit.waitForCode(email))
  })

  test('behavior: an address funded on one emulator is not funded on the other', async () => {
    const funded = await first.kit.fund(bob.address, { eth: '7', erc20: 3n })
    expect(funded).toEqual({ eth: parseEther('7'), erc20: 3n })
    const other = await second.kit.fund(bob.address, {})
    expect(other.erc20).toBe(0n)
    // Anvil's own opening balance for its default accounts.
    expect(other.eth).toBe(parseEther('10000'))
  })

  test('error: a negative worker index is refused', async () => {
    await expect(startWorkerEmulator({ workerIndex: -1 })).rejects.toThrow(
      'workerIndex must be a whole number from 0, not -1.',
    )
  })
})

describe('createTestKit', () => {
  test('behavior: fund sets the ETH balance exactly and mints the test ERC20 on top', async () => {
    const kit = second.kit
    expect(await kit.fund(alice.address, { eth: '1.5', erc20: 250n })).toEqual({
      eth: parseEther('1.5'),
      erc20: 250n,
    })
    expect(
      await kit.fund(alice.address, { eth: 2n, erc20: '0.000000000000000250' }),
    ).toEqual({ eth: 2n, erc20: 500n })
    expect(await chainOf(kit).getBalance({ address: alice.address })).toBe(2n)
  })

  test('behavior: mintNft mints the next test NFT to its owner', async () => {
    const kit = second.kit
    const one = await kit.mintNft(alice.address)
    const two = await kit.mintNft(bob.address)
    expect(two).toBe(one + 1n)
    const owner = (tokenId: bigint) =>
      chainOf(kit).readContract({
        address: kit.info.contracts.testErc721,
        abi: erc721Abi,
        functionName: 'ownerOf',
        args: [tokenId],
      })
    expect(await owner(one)).toBe(alice.address)
    expect(await owner(two)).toBe(bob.address)
    // Side by side, as a test's setup runs them: the kit sends them in turn
    // (the node alone would give both the same nonce).
    // Twenty at once: with Anvil left to pick the nonces, a few of these
    // were refused as "nonce too low".
    const many = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        kit.mintNft((index % 2 ? bob : alice).address),
      ),
    )
    expect([...many].sort((a, b) => (a < b ? -1 : 1))).toEqual(
      Array.from({ length: 20 }, (_, index) => two + 1n + BigInt(index)),
    )
  })

  test('behavior: mintNft mints a chosen token id, and the next ids pass over it', async () => {
    const kit = first.kit
    const owner = (tokenId: bigint) =>
      chainOf(kit).readContract({
        address: kit.info.contracts.testErc721,
        abi: erc721Abi,
        functionName: 'ownerOf',
        args: [tokenId],
      })
    const next = await kit.mintNft(alice.address)
    expect(await kit.mintNft(bob.address, { tokenId: next + 1n })).toBe(
      next + 1n,
    )
    expect(await kit.mintNft(bob.address, { tokenId: 4242 })).toBe(4242n)
    expect(await owner(next + 1n)).toBe(bob.address)
    expect(await owner(4242n)).toBe(bob.address)
    // The next id in order is taken by the chosen one: it is passed over.
    expect(await kit.mintNft(alice.address)).toBe(next + 2n)
  })

  test('error: mintNft refuses a token id minted already, naming its owner, and a bad id', async () => {
    const kit = first.kit
    await kit.mintNft(bob.address, { tokenId: 777n })
    await expect(kit.mintNft(alice.address, { tokenId: 777n })).rejects.toThrow(
      new TestKitError(
        `Minting test NFT #777 to ${alice.address}: #777 is minted already (its owner is ${bob.address}).`,
      ),
    )
    await expect(kit.mintNft(alice.address, { tokenId: -1n })).rejects.toThrow(
      'A token id is a whole number from 0 to 2^256 - 1, not -1.',
    )
    await expect(kit.mintNft(alice.address, { tokenId: 1.5 })).rejects.toThrow(
      'A token id is a whole number from 0 to 2^256 - 1, not 1.5.',
    )
    await expect(
      kit.mintNft(alice.address, { tokenId: 777n }),
    ).rejects.toBeInstanceOf(TestKitError)
  })

  test('error: fund refuses what is not an address or an amount', async () => {
    await expect(
      second.kit.fund('0x123' as Address, { eth: '1' }),
    ).rejects.toThrow('0x123 is not an address.')
    await expect(second.kit.fund(alice.address, { eth: '-1' })).rejects.toThrow(
      '"-1" is not an amount of whole tokens (e.g. "1.5").',
    )
  })

  test('behavior: a snapshot revert restores a balance and a nonce exactly', async () => {
    const kit = first.kit
    const chain = chainOf(kit)
    await kit.fund(alice.address, { eth: '5' })
    const nonce = await chain.getTransactionCount({ address: alice.address })
    const id = await kit.snapshot()
    const wallet = createWalletClient({
      account: alice,
      transport: http(kit.info.rpcUrl),
    })
    const hash = await wallet.sendTransaction({
      chain: null,
      to: bob.address,
      value: parseEther('1'),
    })
    await chain.waitForTransactionReceipt({ hash })
    expect(await chain.getTransactionCount({ address: alice.address })).toBe(
      nonce + 1,
    )
    expect(
      await chain.getBalance({ address: alice.address }),
    ).toBeLessThanOrEqual(parseEther('4'))

    await kit.revert(id)
    expect(await chain.getBalance({ address: alice.address })).toBe(
      parseEther('5'),
    )
    expect(await chain.getTransactionCount({ address: alice.address })).toBe(
      nonce,
    )
    expect(await chain.getTransaction({ hash }).catch(() => null)).toBe(null)
    // A snapshot is used up by its revert.
    await expect(kit.revert(id)).rejects.toThrow(
      `The chain has no snapshot ${id} (a snapshot is used up by its revert).`,
    )
  })

  test('behavior: increaseTime moves the next block past the time given', async () => {
    const kit = first.kit
    const before = (await chainOf(kit).getBlock()).timestamp
    const after = await kit.increaseTime(3600)
    expect(after).toBeGreaterThanOrEqual(before + 3600n)
    expect((await chainOf(kit).getBlock()).timestamp).toBe(after)
  })

  test('error: waitForCode names what it waited for and the newest message it saw', async () => {
    const kit = first.kit
    const email = 'grace@example.com'
    await startEmailLogin(kit, email)
    const [sent] = await kit.mailbox(email)
    const at = sent?.at.slice(11, 19)
    const error = await kit
      .waitForCode(email, { kind: 'sms-otp', timeoutMs: 200 })
      .catch((error: unknown) => error)
    expect(error).toBeInstanceOf(WaitTimeoutError)
    expect((error as WaitTimeoutError).shortMessage).toBe(
      `No sms-otp code for ${email} within 200 ms; the mailbox held 1 message for ${email}, the newest an email-otp with a code at ${at}.`,
    )
    const since = new Date(Date.now() + 60_000)
    await expect(
      kit.waitForCode(email, { since, timeoutMs: 100 }),
    ).rejects.toThrow(
      `No login code for ${email} since ${since.toISOString().slice(11, 19)} within 100 ms; the mailbox held 1 message for ${email}`,
    )
    await expect(
      kit.waitForCode('nobody@example.com', { timeoutMs: 100 }),
    ).rejects.toThrow(
      'No login code for nobody@example.com within 100 ms; the mailbox held no message for nobody@example.com.',
    )
  })

  test("behavior: the guardian's rules are set for everyone and for one wallet", async () => {
    const kit = first.kit
    await kit.guardian.setRules({ confirmAboveValue: '1000' })
    expect(await kit.guardian.getRules()).toMatchObject({
      confirmAboveValue: '1000',
      unavailable: false,
    })
    await kit.guardian.setRules({ unavailable: true }, { wallet: bob.address })
    expect(await kit.guardian.getRules({ wallet: bob.address })).toMatchObject({
      unavailable: true,
    })
    await kit.guardian.setRules(null, { wallet: bob.address })
    await kit.guardian.setRules({})
    expect(await kit.guardian.getRules()).toMatchObject({
      confirmAboveValue: null,
    })
  })

  test('behavior: a session-activity rule is set for the emulator client', async () => {
    const kit = first.kit
    await kit.sessionActivity.setRule({ delay: 2, untilCheckCount: 1 })
    const rules = async () =>
      (
        (await (
          await fetch(`${kit.info.passport.apiUrl}/dev/session-activity`)
        ).json()) as { rules: unknown }
      ).rules
    expect(await rules()).toEqual({
      [kit.info.passport.clientId]: { delay: 2, untilCheckCount: 1 },
    })
    await kit.sessionActivity.setRule(null)
    expect(await rules()).toEqual({})
  })

  test("behavior: the relayer's next outcomes and fee are set, and refused values are named", async () => {
    const kit = first.kit
    expect(await kit.relayer.next('revert', { wallet: bob.address })).toEqual({
      planned: 1,
    })
    expect(await kit.relayer.setFee(5n)).toEqual({ tokenPrice: '5' })
    expect(await kit.relayer.reset()).toEqual({ ok: true })
    const error = await kit.relayer
      .next('fail', { count: 0 })
      .catch((error: unknown) => error)
    expect(error).toBeInstanceOf(TestKitError)
    expect((error as TestKitError).shortMessage).toBe(
      `POST ${kit.info.passport.relayerUrl}/dev/next answered 400: count must be an integer from 1 to 1000.`,
    )
  })

  test('error: a StarkEx mint for an unregistered account names the route and the reason', async () => {
    const kit = first.kit
    await expect(
      kit.starkex.mint({
        user: bob.address.toLowerCase(),
        token: { type: 'ETH', data: { decimals: 18 } },
        quantity: '1000000000000000000',
      }),
    ).rejects.toThrow(
      `POST ${kit.info.passport.overrides.imxPublicApiDomain}/dev/starkex/mint answered 404: ${bob.address.toLowerCase()} is not registered with StarkEx.`,
    )
  })
})
