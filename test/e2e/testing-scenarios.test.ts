/**
 * The kit's scenarios and time travel against a whole emulator: each
 * scenario, switched on through the kit, changes the very next request to
 * the real service it affects, and `kit.scenarios.reset()` undoes it; the
 * services' clock, advanced through the kit, expires a login code, moves
 * the chain's time and the session-activity checks' days, and ages the
 * tokens issued before it.
 *
 * The clock only moves forward, so its tests come last.
 */
import { decodeJwt } from 'jose'
import {
  type Address,
  createPublicClient,
  encodeFunctionData,
  http,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { TestERC20 } from '../../src/emulator/chain/artifacts.generated.js'
import { type Emulator, startEmulator } from '../../src/emulator/index.js'
import {
  call,
  codeOf,
  createDevice,
  open,
  type Target,
} from '../../src/emulator/magic/provider/testkit.js'
import { findFreePort, findFreePortRange } from '../../src/emulator/net.js'
import { custodyIdentity } from '../../src/emulator/passport/custody.js'
import {
  tokenRequest,
  tokensFor,
} from '../../src/emulator/passport/identity/testkit.js'
import {
  clientSend,
  rpc,
  settled,
} from '../../src/emulator/passport/relayer/testkit.js'
import { slots } from '../../src/emulator/ports.js'
import * as Scenarios from '../../src/emulator/scenarios.js'
import { paths } from '../../src/passport/wire/api.js'
import { methods } from '../../src/passport/wire/relayer.js'
import {
  type MetaTransaction,
  metaTransaction,
  playerWalletAddress,
} from '../../src/passport/wire/sequence.js'
import {
  createTestKit,
  type TestKit,
  TestKitError,
} from '../../src/testing/index.js'

let emulator: Emulator
let kit: TestKit

beforeAll(async () => {
  emulator = await startEmulator({
    portBase: await findFreePortRange(slots.length),
    anvilPort: await findFreePort(),
  })
  kit = createTestKit(emulator.info)
})
afterAll(() => emulator?.stop())
afterEach(() => kit.scenarios.reset())

let players = 0

/** A player signed in at the identity provider, with their registered game wallet. */
async function newPlayer() {
  const { passport } = emulator.info
  const tokens = await tokensFor(
    {
      issuer: passport.authenticationDomain,
      clientId: passport.clientId,
      mailbox: emulator.mailbox,
    },
    `scenario-player${++players}@example.com`,
  )
  // The custody key and wallet as the key-custody API and the platform
  // API's registration make them.
  const user = await emulator.registry.findOrCreate(
    custodyIdentity(passport.authenticationDomain, tokens.sub),
  )
  const custody = privateKeyToAccount(emulator.registry.revealKey(user.id))
  const wallet = playerWalletAddress({
    custody: custody.address,
    contracts: emulator.info.contracts,
  })
  emulator.registry.setPassport(tokens.sub, {
    zkevmEthAddress: wallet,
    zkevmUserAdminAddress: custody.address,
  })
  return { ...tokens, custody, wallet }
}

type Player = Awaited<ReturnType<typeof newPlayer>>

const mintTo = (to: Address): MetaTransaction =>
  metaTransaction({
    to: emulator.info.contracts.erc20,
    data: encodeFunctionData({
      abi: TestERC20.abi,
      functionName: 'mint',
      args: [to, 1n],
    }),
  })

/** Asks the guardian, through the platform API, to evaluate a transaction. */
function evaluate(player: Player, nonce: bigint, tx: MetaTransaction) {
  return fetch(
    `${emulator.info.passport.overrides.indexerMrBasePath}${paths.evaluateTransaction}`,
    {
      method: 'POST',
      headers: {
        authorization: `Bearer ${player.accessToken}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        chainType: 'evm',
        chainId: `eip155:${emulator.info.chainId}`,
        transactionData: {
          nonce: nonce.toString(),
          userAddress: player.wallet,
          metaTransactions: [
            {
              delegateCall: tx.delegateCall,
              revertOnError: tx.revertOnError,
              gasLimit: tx.gasLimit.toString(),
              target: tx.target,
              value: tx.value.toString(),
              data: tx.data,
            },
          ],
        },
      }),
    },
  )
}

/** Evaluates (allowed) and relays a mint from the player's wallet; its relayer id. */
async function relay(player: Player, nonce = 0n): Promise<string> {
  const tx = mintTo(player.wallet)
  expect((await evaluate(player, nonce, tx)).status).toBe(200)
  const { params } = await clientSend({
    chainId: emulator.info.chainId,
    wallet: player.wallet,
    custody: player.custody,
    nonce,
    transactions: [tx],
  })
  const { relayerUrl } = emulator.info.passport
  const { status, body } = await rpc(
    relayerUrl,
    player.accessToken,
    methods.sendTransaction,
    params,
  )
  expect(status).toBe(200)
  return body.result as string
}

const magic: Target = {
  request: (path, init) =>
    fetch(`${emulator.info.magic.endpoint}${path}`, init),
}

describe('kit.scenarios', () => {
  test('default: every scenario is listed off, with its title and the published SDK effect', async () => {
    expect(await kit.scenarios.list()).toEqual(Scenarios.create().list())
  })

  test('behavior: set turns one on (set(name, false) off) and reset turns every one off', async () => {
    expect(await kit.scenarios.set('node-down')).toMatchObject({
      name: 'node-down',
      on: true,
    })
    await kit.scenarios.set('relayer-stalling', true)
    expect(emulator.scenarios.isOn('relayer-stalling')).toBe(true)
    expect(await kit.scenarios.set('relayer-stalling', false)).toMatchObject({
      on: false,
    })
    const list = await kit.scenarios.reset()
    expect(list.filter((entry) => entry.on)).toEqual([])
    expect(emulator.scenarios.isOn('node-down')).toBe(false)
  })

  test('error: an unknown scenario is a TestKitError naming the route and the scenarios', async () => {
    const refused = kit.scenarios.set('popup-blocked' as Scenarios.Name)
    await expect(refused).rejects.toThrowError(TestKitError)
    await expect(refused).rejects.toThrowError(
      /^PUT http:\/\/127\.0\.0\.1:\d+\/scenarios\/popup-blocked answered 404: There is no scenario "popup-blocked"; the scenarios are refresh-token-rejected, /,
    )
    await expect(
      kit.scenarios.set('node-down', 'yes' as unknown as boolean),
    ).rejects.toThrowError('scenarios.set takes on as a boolean, not yes.')
  })

  test('error: pages on other sites cannot list or switch scenarios', async () => {
    const dev = new URL(emulator.info.mailbox).origin
    const response = await fetch(`${dev}/scenarios/node-down`, {
      method: 'PUT',
      headers: {
        origin: 'https://evil.example',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ on: true }),
    })
    expect(response.status).toBe(403)
    expect(emulator.scenarios.isOn('node-down')).toBe(false)
  })
})

describe('each scenario takes effect on the next request and is cleared by reset', () => {
  test('refresh-token-rejected: the token endpoint answers invalid_grant to a refresh', async () => {
    const player = await newPlayer()
    const { passport } = emulator.info
    const refresh = () =>
      tokenRequest(passport.authenticationDomain, {
        grant_type: 'refresh_token',
        client_id: passport.clientId,
        refresh_token: player.refreshToken,
      })
    await kit.scenarios.set('refresh-token-rejected')
    const refused = await refresh()
    expect(refused.status).toBe(400)
    expect(refused.body.error).toBe('invalid_grant')
    await kit.scenarios.reset()
    const refreshed = await refresh()
    expect(refreshed.status).toBe(200)
    expect(refreshed.body.access_token).toEqual(expect.any(String))
  })

  test("provider-rate-limited: the iframe wallet's API answers 429 with the hosted API's envelope", async () => {
    const device = await createDevice()
    await kit.scenarios.set('provider-rate-limited')
    const limited = await magic.request('/v1/flow', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('60')
    expect(await limited.json()).toEqual({
      data: {},
      error_code: 'RATE_LIMITED',
      message:
        'Too many requests: the rate limit of this application is exceeded.',
      status: 'failed',
    })
    // The iframe app's page itself still loads: only the API is limited.
    expect((await magic.request('/send')).status).toBe(200)
    await kit.scenarios.reset()
    const answered = await call(magic, 'magic_is_logged_in', [], { device })
    expect(answered.result).toBe(false)
  })

  test("guardian-unavailable: the guardian's evaluations answer 403", async () => {
    const player = await newPlayer()
    const tx = mintTo(player.wallet)
    await kit.scenarios.set('guardian-unavailable')
    const refused = await evaluate(player, 0n, tx)
    expect(refused.status).toBe(403)
    expect(await refused.json()).toMatchObject({
      code: 'AUTHENTICATION_ERROR',
      message: 'The guardian is unavailable.',
    })
    await kit.scenarios.reset()
    const evaluated = await evaluate(player, 0n, tx)
    expect(evaluated.status).toBe(200)
    expect(await evaluated.json()).toMatchObject({
      confirmationRequired: false,
    })
  })

  test.each([
    [
      'relayer-failing',
      'FAILED',
      'The relayer failed to submit the transaction.',
    ],
    ['relayer-reverting', 'REVERTED', undefined],
  ] as const)(
    '%s: every relayed transaction ends %s',
    async (name, status, message) => {
      const player = await newPlayer()
      const { relayerUrl } = emulator.info.passport
      await kit.scenarios.set(name)
      for (let i = 0; i < 2; i++) {
        const outcome = await settled(
          relayerUrl,
          player.accessToken,
          await relay(player),
        )
        expect(outcome.status).toBe(status)
        if (message !== undefined) expect(outcome.statusMessage).toBe(message)
        else expect(outcome.statusMessage).toEqual(expect.any(String))
      }
      await kit.scenarios.reset()
      const done = await settled(
        relayerUrl,
        player.accessToken,
        await relay(player),
      )
      expect(done.status).toBe('SUCCESSFUL')
    },
  )

  test('relayer-stalling: every relayed transaction stays PENDING', async () => {
    const player = await newPlayer()
    const { relayerUrl } = emulator.info.passport
    await kit.scenarios.set('relayer-stalling')
    const stalled = await relay(player)
    const { body } = await rpc(
      relayerUrl,
      player.accessToken,
      methods.getTransactionByHash,
      [stalled],
    )
    expect(body.result).toMatchObject({ status: 'PENDING' })
    await kit.scenarios.reset()
    const done = await settled(
      relayerUrl,
      player.accessToken,
      await relay(player),
    )
    expect(done.status).toBe('SUCCESSFUL')
    // What stalled while the scenario was on stays stalled.
    const still = await rpc(
      relayerUrl,
      player.accessToken,
      methods.getTransactionByHash,
      [stalled],
    )
    expect(still.body.result).toMatchObject({ status: 'PENDING' })
  })

  test("custody-session-expired: the key custody refuses the player's token and the custody app's session reads as logged out", async () => {
    const player = await newPlayer()
    const { overrides } = emulator.info.passport
    const createWallet = () =>
      fetch(`${overrides.magicTeeBasePath}/v1/wallet`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${player.idToken}`,
          'x-magic-api-key': overrides.magicPublishableApiKey,
          'x-oidc-provider-id': overrides.magicProviderId,
          'x-magic-chain': 'ETH',
        },
      })
    const device = await createDevice()
    const custodyApp = { device, apiKey: overrides.magicPublishableApiKey }
    const login = await call(
      magic,
      'magic_auth_login_with_oidc',
      [{ jwt: player.idToken, providerId: overrides.magicProviderId }],
      custodyApp,
    )
    expect(login.result).toEqual(expect.any(String))

    await kit.scenarios.set('custody-session-expired')
    const refused = await createWallet()
    expect(refused.status).toBe(401)
    expect(await refused.json()).toEqual({
      code: 'UNAUTHORIZED',
      message: 'The token is invalid or expired.',
    })
    expect(
      (await call(magic, 'magic_is_logged_in', [], custodyApp)).result,
    ).toBe(false)

    await kit.scenarios.reset()
    expect((await createWallet()).status).toBe(200)
    expect(
      (await call(magic, 'magic_is_logged_in', [], custodyApp)).result,
    ).toBe(true)
  })

  test("node-down: the chain's rpcUrl answers 502 as a proxy whose node is down; a local admin call still passes", async () => {
    const chain = createPublicClient({
      transport: http(emulator.info.rpcUrl, { retryCount: 0 }),
    })
    const raw = (method: string, origin?: string) =>
      fetch(emulator.info.rpcUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(origin === undefined ? {} : { origin }),
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }),
      })
    await kit.scenarios.set('node-down')
    const down = await raw('eth_chainId', 'https://dapp.example')
    expect(down.status).toBe(502)
    expect(down.headers.get('access-control-allow-origin')).toBe(
      'https://dapp.example',
    )
    expect(await down.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32603, message: 'The node is not reachable.' },
    })
    // viem reads the JSON-RPC error the 502 carries.
    await expect(chain.getChainId()).rejects.toThrowError(
      /^An internal error was received\.\n\nStatus: 502\n[\s\S]*Details: The node is not reachable\./,
    )
    expect((await raw('anvil_getAutomine')).status).toBe(200)
    await kit.scenarios.reset()
    expect(await chain.getChainId()).toBe(emulator.info.chainId)
  })
})

describe('kit.clock: time travel', () => {
  test('default: the services clock is the wall clock', async () => {
    const before = Date.now()
    const now = (await kit.clock.now()).getTime()
    expect(now).toBeGreaterThanOrEqual(before)
    expect(now).toBeLessThanOrEqual(Date.now())
  })

  test("behavior: an iframe wallet login code expires once the clock is advanced by its lifetime, and the chain's time moved as much", async () => {
    const chain = createPublicClient({ transport: http(emulator.info.rpcUrl) })
    const before = (await chain.getBlock()).timestamp
    const email = 'time-traveller@example.com'
    const flow = await open(
      magic,
      'magic_auth_login_with_email_otp',
      [{ email, showUI: false }],
      { device: await createDevice() },
    )
    await flow.event('email-otp-sent')
    const code = codeOf(emulator.mailbox, email)
    const now = await kit.clock.advance(10 * 60)
    expect(now.getTime()).toBeGreaterThanOrEqual(Date.now() + 600_000 - 1_000)
    expect((await chain.getBlock()).timestamp).toBeGreaterThanOrEqual(
      before + 600n,
    )
    await flow.answer('verify-email-otp', code)
    await flow.event('expired-email-otp')
    await flow.answer('cancel')
    expect((await flow.done()).response.error).toMatchObject({ code: -10014 })
  })

  test('behavior: the session-activity checks are recorded days later after advancing by days', async () => {
    const { apiUrl, clientId } = emulator.info.passport
    const wallet = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    const check = () =>
      fetch(
        `${apiUrl}${paths.sessionActivityCheck}?clientId=${clientId}&wallet=${wallet}&checkCount=0&sendCount=0`,
      )
    const checks = async () =>
      (
        (await (
          await fetch(`${apiUrl}/dev/session-activity?clientId=${clientId}`)
        ).json()) as { checks: { at: string }[] }
      ).checks
    await check()
    const [first] = (await checks()).slice(-1)
    await kit.clock.advance(2 * 24 * 60 * 60)
    await check()
    const [second] = (await checks()).slice(-1)
    const days =
      (Date.parse(second?.at ?? '') - Date.parse(first?.at ?? '')) / 86_400_000
    expect(days).toBeGreaterThanOrEqual(2)
    expect(days).toBeLessThan(2.01)
  })

  test('behavior: a token issued before the advance expires by the services clock; one refreshed after it is accepted', async () => {
    const player = await newPlayer()
    const tx = mintTo(player.wallet)
    const asPlayer = (accessToken: string) =>
      evaluate({ ...player, accessToken }, 0n, tx)
    expect((await asPlayer(player.accessToken)).status).toBe(200)
    const { iat = 0, exp = 0 } = decodeJwt(player.accessToken)
    // Tokens say their time in whole seconds, and a move within a token's
    // second counts as after it (a token issued right after a move must
    // not age by it): move in a later second than the token's.
    const nextSecond = (iat + 1) * 1000 - Date.now()
    if (nextSecond > 0)
      await new Promise((resolve) => setTimeout(resolve, nextSecond))
    await kit.clock.advance(exp - iat + 60)
    expect((await asPlayer(player.accessToken)).status).toBe(401)
    const { passport } = emulator.info
    const refreshed = await tokenRequest(passport.authenticationDomain, {
      grant_type: 'refresh_token',
      client_id: passport.clientId,
      refresh_token: player.refreshToken,
    })
    expect(refreshed.status).toBe(200)
    expect((await asPlayer(refreshed.body.access_token as string)).status).toBe(
      200,
    )
  })

  test.each([
    [-1, 'clock.advance takes whole seconds from 0, not -1.'],
    [1.5, 'clock.advance takes whole seconds from 0, not 1.5.'],
  ])('error: advance(%s) is refused by the kit', async (seconds, message) => {
    await expect(kit.clock.advance(seconds)).rejects.toThrowError(message)
  })
})
