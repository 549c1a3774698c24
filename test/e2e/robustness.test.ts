/**
 * No web page can crash the emulator: every route of every service (the dev
 * mailbox, the iframe wallet's provider, the game wallet's identity
 * provider, relayer, platform API, key-custody API and StarkEx exchange, the
 * chain gateway) is sent
 * malformed, oversized, deeply nested and random input, with random
 * methods, origins, content types, tokens and garbage paths, through real
 * HTTP. Every answer must be a 4xx or less with
 * a body in the route's form (JSON; HTML for pages people open or when the
 * request asks for HTML; the flow's NDJSON; the iframe's assets), nothing
 * may escape as an unhandled rejection or exception, and afterwards the
 * emulator must still serve: its health check, the mailbox, the chain, an
 * email login through the iframe wallet's provider, the identity
 * provider's discovery, the platform API (its indexer's reads included),
 * the key-custody API and the StarkEx exchange (with the player's funds
 * where they were).
 */
import { request } from 'node:http'
import fc from 'fast-check'
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  hashMessage,
  http,
  parseEther,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { anvil } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { TestERC721 } from '../../src/emulator/chain/artifacts.generated.js'
import { platformApiKey } from '../../src/emulator/constants.js'
import { type Emulator, startEmulator } from '../../src/emulator/index.js'
import {
  createDevice,
  loginByEmail,
  open,
} from '../../src/emulator/magic/provider/testkit.js'
import { findFreePort, findFreePortRange } from '../../src/emulator/net.js'
import { custodyIdentity } from '../../src/emulator/passport/custody.js'
import { tokensFor } from '../../src/emulator/passport/identity/testkit.js'
import {
  newStarkKey,
  starkSign,
} from '../../src/emulator/passport/starkex/testkit.js'
import { slots } from '../../src/emulator/ports.js'
import { defaultBodyLimit } from '../../src/emulator/server.js'
import { encodeParams } from '../../src/magic/wire/messages.js'
import { registrationMessage } from '../../src/passport/wire/api.js'

let emulator: Emulator
const escaped: { kind: string; error: unknown }[] = []
const onRejection = (error: unknown) =>
  escaped.push({ kind: 'unhandledRejection', error })
const onException = (error: unknown) =>
  escaped.push({ kind: 'uncaughtException', error })
let stderr: ReturnType<typeof vi.spyOn>

/** The origins of the services, by name. */
const base = {
  dev: '',
  magic: '',
  identity: '',
  relayer: '',
  api: '',
  tee: '',
  passport: '',
  starkex: '',
  chain: '',
}

/** Real state to aim some requests at: a sign-in page, a waiting flow. */
const state = {
  interaction: { uid: '', cookie: '' },
  device: { cookie: '', xsrf: '' },
  flowId: '',
  /** A registered game-wallet player's tokens. */
  accessToken: '',
  idToken: '',
  /** That player's game wallet. */
  wallet: '',
  /** That player's user id. */
  sub: '',
  /** That player's StarkEx address (its custody key), Stark key and ETH balance there. */
  imxUser: '',
  starkKey: '',
  imxBalance: '',
  /** An exchange, a transfer id and an ERC721 of the StarkEx exchange. */
  exchangeId: '',
  imxCollection: '0x00000000000000000000000000000000000000c1',
  imxTokenId: '7',
  verdictId: '',
  /** The indexer's real things: the chain, an NFT, its holder, ids. */
  chainName: '',
  contract: '',
  tokenId: '',
  account: '',
  metadataId: '',
  activityId: '',
  /** The minting backend's real things: its ERC-721, a mint request. */
  mintContract: '',
  referenceId: '',
}

beforeAll(async () => {
  process.on('unhandledRejection', onRejection)
  process.on('uncaughtException', onException)
  // The services log each request that failed in a handler; thousands of
  // them would bury the test's own output.
  stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
  emulator = await startEmulator({
    portBase: await findFreePortRange(slots.length),
    anvilPort: await findFreePort(),
  })
  base.dev = new URL(emulator.info.mailbox).origin
  base.magic = emulator.info.magic.endpoint
  base.identity = emulator.info.passport.authenticationDomain
  base.relayer = emulator.info.passport.relayerUrl
  base.api = emulator.info.passport.apiUrl
  base.tee = emulator.info.passport.overrides.magicTeeBasePath
  base.passport = emulator.info.passport.passportDomain
  base.starkex = emulator.info.passport.overrides.imxPublicApiDomain
  base.chain = emulator.info.rpcUrl

  const authorize = new URL('/authorize', base.identity)
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: emulator.info.passport.clientId,
    redirect_uri: 'http://127.0.0.1:63315/passport/redirect',
    scope: 'openid email offline_access',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  }).toString()
  const started = await fetch(authorize, { redirect: 'manual' })
  state.interaction.uid =
    /\/interaction\/([^/?]+)/.exec(
      started.headers.get('location') ?? '',
    )?.[1] ?? ''
  state.interaction.cookie = cookiesOf(started)
  const device = await fetch(`${base.identity}/device`)
  state.device.cookie = cookiesOf(device)
  state.device.xsrf =
    /name="xsrf" value="([^"]*)"/.exec(await device.text())?.[1] ?? ''
  expect(state.interaction.uid).not.toBe('')
  expect(state.device.xsrf).not.toBe('')

  // A pending guardian verdict, for the confirmation pages' routes.
  const verdict = await fetch(`${base.passport}/dev/verdicts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      kind: 'erc191',
      chainId: emulator.info.chainId,
      wallet: '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf',
      payload: 'hello',
    }),
  })
  state.verdictId = ((await verdict.json()) as { id: string }).id

  // A login flow left waiting for its code, for the intermediary route.
  const flow = await open(
    { request: (path, init) => fetch(`${base.magic}${path}`, init) },
    'magic_auth_login_with_email_otp',
    [{ email: 'waiting@example.com', showUI: false }],
    { device: await createDevice() },
  )
  await flow.event('email-otp-sent')
  state.flowId = flow.flowId

  // A registered game-wallet player, whose tokens some requests carry.
  const tokens = await tokensFor(
    {
      issuer: base.identity,
      clientId: emulator.info.passport.clientId,
      mailbox: emulator.mailbox,
    },
    'fuzz-player@example.com',
  )
  state.accessToken = tokens.accessToken
  state.idToken = tokens.idToken
  state.sub = tokens.sub
  const custody = await emulator.registry.findOrCreate(
    custodyIdentity(base.identity, tokens.sub),
  )
  const registered = await fetch(
    `${base.api}/v2/chains/${emulator.info.passport.overrides.zkEvmChainName}/passport/counterfactual-address`,
    {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokens.accessToken}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        ethereum_address: custody.address,
        ethereum_signature: await emulator.registry.signMessage(
          custody.id,
          registrationMessage,
        ),
      }),
    },
  )
  expect(registered.status).toBe(200)
  state.wallet = (
    (await registered.json()) as { counterfactual_address: string }
  ).counterfactual_address

  // The same player registered with the StarkEx exchange, holding ETH and
  // an NFT there, with an exchange (on/off-ramp) open.
  const stark = newStarkKey()
  const json = (body: unknown, token?: string) => ({
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  })
  const signable = (await (
    await fetch(
      `${base.starkex}/v1/signable-registration-offchain`,
      json({ ether_key: custody.address, stark_key: stark.starkKey }),
    )
  ).json()) as { payload_hash: string; signable_message: string }
  const imxRegistered = await fetch(
    `${base.starkex}/v2/passport/users`,
    json(
      {
        eth_signature: await emulator.registry.signMessage(
          custody.id,
          signable.signable_message,
        ),
        ether_key: custody.address,
        stark_signature: starkSign(signable.payload_hash, stark.privateKey),
        stark_key: stark.starkKey,
      },
      tokens.accessToken,
    ),
  )
  expect(imxRegistered.status).toBe(201)
  state.imxUser = custody.address
  state.starkKey = stark.starkKey
  for (const [token, quantity] of [
    [{ type: 'ETH', data: { decimals: 18 } }, '1000000000000000000'],
    [
      {
        type: 'ERC721',
        data: {
          token_address: state.imxCollection,
          token_id: state.imxTokenId,
        },
      },
      '1',
    ],
  ] as const)
    expect(
      (
        await fetch(
          `${base.starkex}/dev/starkex/mint`,
          json({ user: custody.address, token, quantity }),
        )
      ).status,
    ).toBe(200)
  state.imxBalance = '1000000000000000000'
  const exchange = await fetch(
    `${base.starkex}/v3/exchanges`,
    json({
      wallet_address: custody.address,
      provider: 'moonpay',
      type: 'offramp',
    }),
  )
  state.exchangeId = String(((await exchange.json()) as { id: number }).id)

  // An NFT minted on the main chain, for the indexer's routes.
  const transport = http(base.chain)
  const minter = privateKeyToAccount(generatePrivateKey())
  await createTestClient({ transport, mode: 'anvil' }).setBalance({
    address: minter.address,
    value: parseEther('1'),
  })
  const chain = defineChain({
    ...anvil,
    id: emulator.info.chainId,
    rpcUrls: { default: { http: [base.chain] } },
  })
  const hash = await createWalletClient({
    account: minter,
    transport,
    chain,
  }).writeContract({
    address: emulator.info.contracts.testErc721,
    abi: TestERC721.abi,
    functionName: 'mint',
    args: [minter.address],
  })
  await createPublicClient({ transport }).waitForTransactionReceipt({ hash })
  state.chainName = emulator.info.passport.overrides.zkEvmChainName
  state.contract = emulator.info.contracts.testErc721.toLowerCase()
  state.tokenId = '1'
  state.account = minter.address.toLowerCase()
  const nft = await fetch(
    `${base.api}/v1/chains/${state.chainName}/collections/${state.contract}/nfts/1`,
  )
  expect(nft.status).toBe(200)
  state.metadataId = (
    (await nft.json()) as { result: { metadata_id: string } }
  ).result.metadata_id
  const activities = await fetch(
    `${base.api}/v1/chains/${state.chainName}/activities?account_address=${state.account}`,
  )
  state.activityId = ((await activities.json()) as { result: { id: string }[] })
    .result[0]!.id

  // A mint request of the platform's ERC-721, for the minting routes.
  state.mintContract = emulator.info.contracts.erc721.toLowerCase()
  state.referenceId = 'fuzz-reference'
  const minted = await fetch(
    `${base.api}/v1/chains/${state.chainName}/collections/${state.mintContract}/nfts/mint-requests`,
    {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-immutable-api-key': platformApiKey,
      },
      body: JSON.stringify({
        assets: [
          { reference_id: state.referenceId, owner_address: state.account },
        ],
      }),
    },
  )
  expect(minted.status).toBe(202)
}, 120_000)

afterAll(async () => {
  process.off('unhandledRejection', onRejection)
  process.off('uncaughtException', onException)
  stderr?.mockRestore()
  await emulator?.stop()
})

/** The `name=value` pairs of a response's cookies, for a `Cookie` header. */
function cookiesOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ')
}

type Service = keyof typeof base

/** What a route answers besides JSON. */
type Form = 'json' | 'page' | 'flow' | 'asset'

/** A route: its service, method, path (`:name` is filled in) and form. */
type Route = {
  service: Service
  method: string
  path: string
  form: Form
  /**
   * Sends the real sign-in or device page's cookies and form fields, a
   * registered player's access token (`bearer`), the key-custody
   * headers with their id token (`tee`), or the platform's secret API key
   * (`key`).
   */
  session?: 'interaction' | 'device' | 'bearer' | 'tee' | 'key' | undefined
}

/** Every route of every service. */
const routes: readonly Route[] = [
  // The dev mailbox.
  { service: 'dev', method: 'GET', path: '/health', form: 'json' },
  { service: 'dev', method: 'GET', path: '/mailbox', form: 'json' },
  { service: 'dev', method: 'GET', path: '/mailbox/view', form: 'page' },
  // The emulator's UI (its event stream never ends, so it is not probed
  // here: src/emulator/dev/ui.test.ts reads it).
  { service: 'dev', method: 'GET', path: '/ui', form: 'page' },
  { service: 'dev', method: 'GET', path: '/ui/app.js', form: 'asset' },
  { service: 'dev', method: 'POST', path: '/ui/actions', form: 'json' },
  // The iframe wallet's provider.
  { service: 'magic', method: 'POST', path: '/v1/flow', form: 'flow' },
  {
    service: 'magic',
    method: 'POST',
    path: '/v1/flow/:flowId/intermediary',
    form: 'json',
  },
  {
    service: 'magic',
    method: 'GET',
    path: '/v1/magic-link/:token',
    form: 'page',
  },
  {
    service: 'magic',
    method: 'GET',
    path: '/v1/device-approval/:token',
    form: 'page',
  },
  {
    service: 'magic',
    method: 'POST',
    path: '/dev/users/device-approval',
    form: 'json',
  },
  {
    service: 'magic',
    method: 'POST',
    path: '/dev/oidc-providers',
    form: 'json',
  },
  { service: 'magic', method: 'GET', path: '/send', form: 'page' },
  { service: 'magic', method: 'GET', path: '/send/', form: 'page' },
  { service: 'magic', method: 'GET', path: '/app.js', form: 'asset' },
  { service: 'magic', method: 'GET', path: '/app.css', form: 'asset' },
  // The game wallet's identity provider.
  { service: 'identity', method: 'GET', path: '/health', form: 'json' },
  {
    service: 'identity',
    method: 'GET',
    path: '/.well-known/openid-configuration',
    form: 'json',
  },
  {
    service: 'identity',
    method: 'GET',
    path: '/.well-known/oauth-authorization-server',
    form: 'json',
  },
  {
    service: 'identity',
    method: 'GET',
    path: '/.well-known/jwks.json',
    form: 'json',
  },
  { service: 'identity', method: 'GET', path: '/authorize', form: 'page' },
  { service: 'identity', method: 'GET', path: '/authorize/:uid', form: 'page' },
  { service: 'identity', method: 'POST', path: '/oauth/token', form: 'json' },
  {
    service: 'identity',
    method: 'POST',
    path: '/oauth/device/code',
    form: 'json',
  },
  { service: 'identity', method: 'POST', path: '/oauth/revoke', form: 'json' },
  { service: 'identity', method: 'GET', path: '/device', form: 'page' },
  {
    service: 'identity',
    method: 'POST',
    path: '/device',
    form: 'page',
    session: 'device',
  },
  { service: 'identity', method: 'GET', path: '/device/:uid', form: 'page' },
  { service: 'identity', method: 'GET', path: '/userinfo', form: 'json' },
  { service: 'identity', method: 'POST', path: '/userinfo', form: 'json' },
  { service: 'identity', method: 'GET', path: '/v2/logout', form: 'page' },
  { service: 'identity', method: 'GET', path: '/session/end', form: 'page' },
  {
    service: 'identity',
    method: 'POST',
    path: '/session/end/confirm',
    form: 'page',
  },
  {
    service: 'identity',
    method: 'GET',
    path: '/session/end/success',
    form: 'page',
  },
  {
    service: 'identity',
    method: 'GET',
    path: '/interaction/:uid',
    form: 'page',
    session: 'interaction',
  },
  {
    service: 'identity',
    method: 'POST',
    path: '/interaction/:uid/email',
    form: 'page',
    session: 'interaction',
  },
  {
    service: 'identity',
    method: 'POST',
    path: '/interaction/:uid/code',
    form: 'page',
    session: 'interaction',
  },
  {
    service: 'identity',
    method: 'POST',
    path: '/interaction/:uid/cancel',
    form: 'page',
  },
  // The game wallet's relayer.
  { service: 'relayer', method: 'GET', path: '/health', form: 'json' },
  {
    service: 'relayer',
    method: 'POST',
    path: '/v1/transactions',
    form: 'json',
    session: 'bearer',
  },
  { service: 'relayer', method: 'POST', path: '/dev/fee', form: 'json' },
  { service: 'relayer', method: 'POST', path: '/dev/next', form: 'json' },
  { service: 'relayer', method: 'POST', path: '/dev/reset', form: 'json' },
  // The game wallet's platform API.
  { service: 'api', method: 'GET', path: '/health', form: 'json' },
  { service: 'api', method: 'GET', path: '/v1/chains', form: 'json' },
  {
    service: 'api',
    method: 'POST',
    path: '/v2/chains/:chainName/passport/counterfactual-address',
    form: 'json',
    session: 'bearer',
  },
  {
    service: 'api',
    method: 'POST',
    path: '/guardian/v1/transactions/evm/evaluate',
    form: 'json',
    session: 'bearer',
  },
  {
    service: 'api',
    method: 'POST',
    path: '/guardian/v1/messages/evaluate',
    form: 'json',
    session: 'bearer',
  },
  {
    service: 'api',
    method: 'POST',
    path: '/guardian/v1/erc191-messages/evaluate',
    form: 'json',
    session: 'bearer',
  },
  {
    service: 'api',
    method: 'POST',
    path: '/guardian/v1/transactions/:id/evaluate',
    form: 'json',
    session: 'bearer',
  },
  {
    service: 'api',
    method: 'POST',
    path: '/guardian/v1/transactions/:id/approve',
    form: 'json',
    session: 'bearer',
  },
  {
    service: 'api',
    method: 'POST',
    path: '/guardian/v1/messages/:id/approve',
    form: 'json',
    session: 'bearer',
  },
  {
    service: 'api',
    method: 'POST',
    path: '/guardian/v1/erc191-messages/:id/approve',
    form: 'json',
    session: 'bearer',
  },
  {
    service: 'api',
    method: 'GET',
    path: '/guardian/v1/transactions/:id',
    form: 'json',
    session: 'bearer',
  },
  {
    service: 'api',
    method: 'GET',
    path: '/guardian/v1/messages/:id',
    form: 'json',
    session: 'bearer',
  },
  {
    service: 'api',
    method: 'GET',
    path: '/guardian/v1/erc191-messages/:id',
    form: 'json',
    session: 'bearer',
  },
  {
    service: 'api',
    method: 'GET',
    path: '/v1/chains/:chainName/passport/users/:userId/linked-addresses',
    form: 'json',
    session: 'bearer',
  },
  {
    service: 'api',
    method: 'GET',
    path: '/passport-mr/v1/users/:userId/linked-addresses',
    form: 'json',
    session: 'bearer',
  },
  {
    service: 'api',
    method: 'GET',
    path: '/passport-mr/v1/users/:userId/metadata',
    form: 'json',
    session: 'key',
  },
  {
    service: 'api',
    method: 'POST',
    path: '/v1/chains/:chainName/passport/transaction-metadata',
    form: 'json',
    session: 'bearer',
  },
  {
    service: 'api',
    method: 'POST',
    path: '/v1/chains/:chainName/passport/typeddata-metadata',
    form: 'json',
    session: 'bearer',
  },
  {
    service: 'api',
    method: 'POST',
    path: '/v1/chains/:chainName/crafting/sign',
    form: 'json',
    session: 'key',
  },
  {
    service: 'api',
    method: 'GET',
    path: '/passport-profile/v1/user/info',
    form: 'json',
    session: 'bearer',
  },
  {
    service: 'api',
    method: 'POST',
    path: '/passport-profile/v2/linked-wallets',
    form: 'json',
    session: 'bearer',
  },
  {
    service: 'api',
    method: 'GET',
    path: '/v1/sdk/session-activity/check',
    form: 'json',
  },
  { service: 'api', method: 'GET', path: '/dev/guardian/rules', form: 'json' },
  { service: 'api', method: 'PUT', path: '/dev/guardian/rules', form: 'json' },
  {
    service: 'api',
    method: 'GET',
    path: '/dev/session-activity',
    form: 'json',
  },
  {
    service: 'api',
    method: 'PUT',
    path: '/dev/session-activity',
    form: 'json',
  },
  // The platform API's indexer.
  ...[
    '/activities',
    '/activity-history',
    '/activities/:activityId',
    '/collections',
    '/collections/:contract',
    '/accounts/:account/collections',
    '/collections/:contract/nfts/:tokenId',
    '/collections/:contract/nfts',
    '/accounts/:account/nfts',
    '/nfts',
    '/collections/:contract/nfts/:tokenId/owners',
    '/nft-owners',
    '/collections/:contract/owners',
    '/tokens',
    '/tokens/:contract',
    '/collections/:contract/metadata/:metadataId',
    '/collections/:contract/metadata',
    '/metadata',
    '/search/filters/:contract',
    '/search/nfts',
    '/search/stacks',
    '/stacks',
    '/quotes/:contract/nfts',
    '/quotes/:contract/stacks',
  ].map(
    (path): Route => ({
      service: 'api',
      method: 'GET',
      path: `/v1/chains/:chainName${path}`,
      form: 'json',
    }),
  ),
  ...[
    '/collections/:contract/refresh-metadata',
    '/collections/:contract/metadata/refresh-metadata',
    '/collections/:contract/nfts/refresh-metadata',
  ].map(
    (path): Route => ({
      service: 'api',
      method: 'POST',
      path: `/v1/chains/:chainName${path}`,
      form: 'json',
      session: 'key',
    }),
  ),
  // The platform API's mint requests.
  ...(['POST', 'GET'] as const).map(
    (method): Route => ({
      service: 'api',
      method,
      path: '/v1/chains/:chainName/collections/:mintContract/nfts/mint-requests',
      form: 'json',
      session: 'key',
    }),
  ),
  {
    service: 'api',
    method: 'GET',
    path: '/v1/chains/:chainName/collections/:mintContract/nfts/mint-requests/:referenceId',
    form: 'json',
    session: 'key',
  },
  {
    service: 'api',
    method: 'GET',
    path: '/dev/indexer/verification-status',
    form: 'json',
  },
  {
    service: 'api',
    method: 'PUT',
    path: '/dev/indexer/verification-status',
    form: 'json',
  },
  { service: 'api', method: 'GET', path: '/dev/indexer/status', form: 'json' },
  // The platform API's order book.
  ...[
    '/orders/listings',
    '/orders/listings/:orderId',
    '/orders/bids',
    '/orders/bids/:orderId',
    '/orders/collection-bids',
    '/orders/collection-bids/:orderId',
    '/trades',
    '/trades/:orderId',
  ].map(
    (path): Route => ({
      service: 'api',
      method: 'GET',
      path: `/v1/chains/:chainName${path}`,
      form: 'json',
    }),
  ),
  ...[
    '/orders/listings',
    '/orders/bids',
    '/orders/collection-bids',
    '/orders/fulfillment-data',
    '/orders/cancel',
  ].map(
    (path): Route => ({
      service: 'api',
      method: 'POST',
      path: `/v1/chains/:chainName${path}`,
      form: 'json',
    }),
  ),
  // The game wallet's key-custody API.
  { service: 'tee', method: 'GET', path: '/health', form: 'json' },
  {
    service: 'tee',
    method: 'POST',
    path: '/v1/wallet',
    form: 'json',
    session: 'tee',
  },
  {
    service: 'tee',
    method: 'POST',
    path: '/v1/wallet/sign/message',
    form: 'json',
    session: 'tee',
  },
  // The game wallet's passport domain (the confirmation pages).
  { service: 'passport', method: 'GET', path: '/health', form: 'json' },
  {
    service: 'passport',
    method: 'GET',
    path: '/transaction-confirmation/loading',
    form: 'page',
  },
  {
    service: 'passport',
    method: 'GET',
    path: '/transaction-confirmation/unavailable',
    form: 'page',
  },
  {
    service: 'passport',
    method: 'GET',
    path: '/transaction-confirmation/transaction',
    form: 'page',
  },
  {
    service: 'passport',
    method: 'GET',
    path: '/transaction-confirmation/zkevm/transaction',
    form: 'page',
  },
  {
    service: 'passport',
    method: 'GET',
    path: '/transaction-confirmation/zkevm/message',
    form: 'page',
  },
  {
    service: 'passport',
    method: 'POST',
    path: '/transaction-confirmation/api/settle',
    form: 'json',
  },
  { service: 'passport', method: 'POST', path: '/dev/verdicts', form: 'json' },
  {
    service: 'passport',
    method: 'GET',
    path: '/dev/verdicts/:id',
    form: 'json',
  },
  // The game wallet's StarkEx exchange.
  { service: 'starkex', method: 'GET', path: '/health', form: 'json' },
  ...(
    [
      ['POST', '/v1/signable-registration-offchain'],
      ['POST', '/v2/passport/users', 'bearer'],
      ['GET', '/v1/users/:imxUser'],
      ['POST', '/dev/starkex/mint'],
      ['POST', '/v1/signable-transfer-details', 'bearer'],
      ['POST', '/v1/transfers', 'bearer'],
      ['POST', '/v2/signable-transfer-details', 'bearer'],
      ['POST', '/v2/transfers', 'bearer'],
      ['GET', '/v1/transfers'],
      ['GET', '/v1/transfers/:transferId'],
      ['POST', '/v3/exchanges'],
      ['GET', '/v3/exchanges'],
      ['GET', '/v3/exchanges/:exchangeId'],
      ['POST', '/v2/exchanges/:exchangeId/signable-transfer-details'],
      ['POST', '/v2/exchanges/:exchangeId/transfers', 'bearer'],
      ['GET', '/v2/balances/:imxUser'],
      ['GET', '/v2/balances/:imxUser/:balanceToken'],
      ['GET', '/v1/assets'],
      ['GET', '/v1/assets/:imxCollection/:imxTokenId'],
      ['POST', '/v3/signable-order-details', 'bearer'],
      ['POST', '/v3/orders', 'bearer'],
      ['GET', '/v3/orders'],
      ['GET', '/v3/orders/:orderId'],
      ['DELETE', '/v3/orders/:orderId', 'bearer'],
      ['POST', '/v3/signable-cancel-order-details', 'bearer'],
      ['POST', '/v3/signable-trade-details', 'bearer'],
      ['POST', '/v3/trades', 'bearer'],
      ['GET', '/v3/trades'],
      ['GET', '/v3/trades/:tradeId'],
      ['POST', '/v1/collections'],
      ['GET', '/v1/collections'],
      ['GET', '/v1/collections/:imxCollection'],
      ['GET', '/v1/projects/:projectId'],
      ['POST', '/v2/mints'],
      ['GET', '/v1/mints'],
      ['GET', '/v1/mints/:mintId'],
    ] as const
  ).map(
    ([method, path, session]): Route => ({
      service: 'starkex',
      method,
      path,
      form: 'json',
      session,
    }),
  ),
  // The chain gateway.
  { service: 'chain', method: 'POST', path: '/', form: 'json' },
]

/** One request to send. */
type Sent = {
  route: Route
  method: string
  path: string
  headers: Record<string, string>
  body?: string | undefined
}

/** What came back. */
type Answer = {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/**
 * Sends a request over its own connection, exactly as given (fetch cannot
 * send every method, Host or body framing). A streamed answer (a flow's
 * NDJSON) is read for a moment, then the connection is closed: a flow may
 * rightly wait for its user.
 */
function send(sent: Sent): Promise<Answer> {
  const url = new URL(base[sent.route.service])
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: sent.method,
        path: sent.path,
        agent: false,
        headers: {
          ...(sent.body === undefined
            ? {}
            : { 'content-length': Buffer.byteLength(sent.body) }),
          ...sent.headers,
        },
      },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        const done = () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body })
        res.on('data', (chunk) => {
          body += chunk
        })
        res.on('end', done)
        res.on('error', () => done())
        if (res.headers['content-type']?.includes('ndjson'))
          setTimeout(() => {
            res.destroy()
            done()
          }, 300)
      },
    )
    req.setTimeout(10_000, () =>
      req.destroy(new Error('No answer within 10 s.')),
    )
    req.on('error', reject)
    req.end(sent.body)
  })
}

/**
 * Why an answer breaks the rules, or `undefined` when it keeps them: a
 * status under 500, and a body in the route's form.
 */
function judge(sent: Sent, answer: Answer): string | undefined {
  const { status, headers, body } = answer
  if (status >= 500) return `answered ${status}: ${body.slice(0, 200)}`
  if (status >= 300 && status < 400)
    return headers.location ? undefined : `a ${status} without Location`
  if (status === 204 || sent.method === 'HEAD' || status === 304)
    return undefined
  const type = String(headers['content-type'] ?? '')
  if (/[/+]json\b/.test(type))
    try {
      JSON.parse(body)
      return undefined
    } catch {
      return `a JSON type with a body that is not JSON: ${body.slice(0, 200)}`
    }
  const asksHtml = /text\/html/.test(sent.headers.accept ?? '')
  if (type.startsWith('text/html') && (sent.route.form === 'page' || asksHtml))
    return undefined
  if (type.includes('ndjson') && sent.route.form === 'flow' && status < 300)
    return body
      .split('\n')
      .filter((line) => line !== '')
      .every((line) => {
        try {
          JSON.parse(line)
          return true
        } catch {
          // The last line may have been cut when the stream was closed.
          return line === body.split('\n').filter(Boolean).at(-1)
        }
      })
      ? undefined
      : `an NDJSON line that is not JSON: ${body.slice(0, 200)}`
  if (
    sent.route.form === 'asset' &&
    status < 300 &&
    /^text\/(css|javascript)/.test(type)
  )
    return undefined
  return `answered ${status} as ${type || 'no type'}: ${body.slice(0, 200)}`
}

/**
 * Sends, judges, and names the case when it fails: a bad answer, no answer,
 * or an error that escaped the process's handlers meanwhile.
 */
async function check(sent: Sent): Promise<void> {
  const name = `${sent.route.service} ${sent.method} ${sent.path.slice(0, 120)}`
  const before = escaped.length
  let verdict: string | undefined
  try {
    verdict = judge(sent, await send(sent))
  } catch (error) {
    verdict = `no answer (${String(error)})`
  }
  // A rejection nobody handles is reported after the current task.
  await new Promise((resolve) => setImmediate(resolve))
  const escapedNow = escaped.slice(before)
  if (escapedNow.length > 0)
    verdict = escapedNow
      .map(({ kind, error }) => `${kind}: ${stackOf(error)}`)
      .join('; ')
  if (verdict !== undefined) throw new Error(`${name}: ${verdict}`)
}

/** The first lines of an error's stack. */
function stackOf(error: unknown): string {
  return error instanceof Error
    ? (error.stack ?? String(error)).split('\n').slice(0, 6).join(' | ')
    : String(error)
}

/** The name of a route, for messages. */
function caseOf(sent: Sent): string {
  return `${sent.route.service} ${sent.route.method} ${sent.route.path}`
}

// Generators.

/** JSON nested `depth` levels deep: arrays, objects, or both. */
function nested(depth: number, kind: 'array' | 'object' | 'mixed'): string {
  let open = ''
  let close = ''
  for (let i = 0; i < depth; i++) {
    const array = kind === 'array' || (kind === 'mixed' && i % 2 === 0)
    open += array ? '[' : '{"a":'
    close = (array ? ']' : '}') + close
  }
  return `${open}1${close}`
}

const deep = fc
  .tuple(
    fc.integer({ min: 1_000, max: 20_000 }),
    fc.constantFrom('array' as const, 'object' as const, 'mixed' as const),
  )
  .map(([depth, kind]) => nested(depth, kind))

/** Text that is hard on parsers and headers once percent-decoded. */
const hostile = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom(
    '\u202e',
    '\r\nx-injected: 1',
    '\u0000',
    '\ud800',
    'http://127.0.0.1:1/\u202e',
    'http://localhost:5173/\r\n',
    'https://evil.example/',
    'javascript:alert(1)',
    '',
    'a'.repeat(5_000),
  ),
)

/** A query value, percent-encoded, or raw escapes a decoder may refuse. */
const queryValue = fc.oneof(
  hostile.map((text) => {
    try {
      return encodeURIComponent(text)
    } catch {
      return '%ED%A0%80'
    }
  }),
  fc.constantFrom('%E2%80%AE', '%0D%0A', '%00', '%FF', '%E0%A4%A', '%', '+'),
)

const queryName = fc.constantFrom(
  'contract_address',
  'token_id',
  'account_address',
  'activity_type',
  'transaction_hash',
  'page_size',
  'page_cursor',
  'from_updated_at',
  'to_updated_at',
  'verification_status',
  'is_canonical',
  'stack_id',
  'traits',
  'keyword',
  'payment_token',
  'sort_by',
  'only_include_owner_listings',
  'only_if_has_active_listings',
  'status',
  'sell_item_contract_address',
  'buy_item_contract_address',
  'sell_item_token_id',
  'buy_item_token_id',
  'sell_item_metadata_id',
  'buy_item_type',
  'sort_direction',
  'from_indexed_at',
  'chainName',
  'clientId',
  'wallet',
  'checkCount',
  'sendCount',
  'to',
  'returnTo',
  'client_id',
  'redirect_uri',
  'post_logout_redirect_uri',
  'response_type',
  'scope',
  'code_challenge',
  'code_challenge_method',
  'audience',
  'state',
  'nonce',
  'prompt',
  'user_code',
  'login_hint',
  'request',
  'chainType',
  'chainID',
  'includeSimulation',
  'a[b][c]',
)

const query = fc
  .array(fc.tuple(queryName, queryValue), { maxLength: 6 })
  .map((pairs) =>
    pairs.length === 0
      ? ''
      : `?${pairs.map(([name, value]) => `${name}=${value}`).join('&')}`,
  )

/** A JSON-RPC request with random or hostile parts. */
const rpcRequest = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant('2.0'), fc.jsonValue({ maxDepth: 1 })),
    id: fc.oneof(fc.integer(), fc.string(), fc.jsonValue({ maxDepth: 3 })),
    method: fc.oneof(
      fc.constantFrom(
        'eth_chainId',
        'eth_blockNumber',
        'eth_getBalance',
        'eth_call',
        'eth_accounts',
        'magic_is_logged_in',
        'magic_get_info',
        'anvil_setBalance',
        'evm_mine',
      ),
      fc.string(),
      fc.jsonValue({ maxDepth: 1 }),
    ),
    params: fc.jsonValue({ maxDepth: 4 }),
  },
  { requiredKeys: [] },
)

/** The iframe's encoded params: a real API key or random values. */
const flowParams = fc.oneof(
  fc.constant(
    encodeParams({
      API_KEY: 'pk_live_EMULATOR0000000000',
      DOMAIN_ORIGIN: 'http://127.0.0.1:5173',
      host: '127.0.0.1',
      sdk: 'magic-sdk',
      version: '33.13.0',
      locale: 'en_US',
    }),
  ),
  fc.string(),
  fc.jsonValue({ maxDepth: 2 }),
)

/** A body: random JSON, a shape the route knows with wrong types, deep. */
const jsonBody = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
  rpcRequest.map((value) => JSON.stringify(value)),
  fc.array(rpcRequest, { maxLength: 5 }).map((value) => JSON.stringify(value)),
  fc
    .record(
      {
        params: flowParams,
        request: fc.oneof(rpcRequest, fc.jsonValue({ maxDepth: 2 })),
        jwt: fc.jsonValue({ maxDepth: 1 }),
        rt: fc.jsonValue({ maxDepth: 1 }),
        deviceShare: fc.jsonValue({ maxDepth: 1 }),
      },
      { requiredKeys: [] },
    )
    .map((value) => JSON.stringify(value)),
  fc
    .record(
      {
        eventType: fc.oneof(fc.string(), fc.jsonValue({ maxDepth: 1 })),
        args: fc.jsonValue({ maxDepth: 3 }),
        email: fc.oneof(fc.emailAddress(), fc.jsonValue({ maxDepth: 1 })),
        required: fc.jsonValue({ maxDepth: 1 }),
        providerId: fc.jsonValue({ maxDepth: 1 }),
        issuer: fc.oneof(fc.webUrl(), fc.jsonValue({ maxDepth: 1 })),
        jwksUri: fc.oneof(fc.webUrl(), fc.jsonValue({ maxDepth: 1 })),
        audience: fc.jsonValue({ maxDepth: 1 }),
      },
      { requiredKeys: [] },
    )
    .map((value) => JSON.stringify(value)),
  fc
    .record(
      {
        chainType: fc.oneof(fc.constant('evm'), fc.jsonValue({ maxDepth: 1 })),
        chainId: fc.oneof(
          fc.constantFrom('eip155:31337', 'eip155:1', '31337'),
          fc.jsonValue({ maxDepth: 1 }),
        ),
        chainID: fc.oneof(
          fc.constantFrom('eip155:31337', '31337', '0x7a69'),
          fc.jsonValue({ maxDepth: 1 }),
        ),
        transactionData: fc.jsonValue({ maxDepth: 4 }),
        payload: fc.jsonValue({ maxDepth: 4 }),
        ethereum_address: fc.jsonValue({ maxDepth: 1 }),
        ethereum_signature: fc.oneof(
          fc.constant(`0x${'11'.repeat(64)}1b`),
          fc.jsonValue({ maxDepth: 1 }),
        ),
        type: fc.jsonValue({ maxDepth: 1 }),
        wallet_address: fc.jsonValue({ maxDepth: 1 }),
        signature: fc.jsonValue({ maxDepth: 1 }),
        nonce: fc.jsonValue({ maxDepth: 1 }),
        message_base64: fc.oneof(
          fc.base64String(),
          fc.jsonValue({ maxDepth: 1 }),
        ),
        clientId: fc.jsonValue({ maxDepth: 1 }),
        rule: fc.jsonValue({ maxDepth: 2 }),
        confirmAboveValue: fc.jsonValue({ maxDepth: 1 }),
        knownContracts: fc.jsonValue({ maxDepth: 2 }),
        contract_address: fc.oneof(
          fc.constant('0x5FC8d32690cc91D4c39d9d3abcBD16989F875707'),
          fc.jsonValue({ maxDepth: 1 }),
        ),
        method_id: fc.oneof(
          fc.constantFrom('0xa9059cbb', '0x'),
          fc.jsonValue({ maxDepth: 1 }),
        ),
        transaction_id: fc.jsonValue({ maxDepth: 1 }),
        transaction_data: fc.oneof(
          fc.constant(
            '0xa9059cbb000000000000000000000000000000000000000000000000000000000000b0b00000000000000000000000000000000000000000000000000000000000000001',
          ),
          fc
            .string({ unit: fc.constantFrom(...'0123456789abcdef') })
            .map((hex) => `0x${hex}`),
          fc.jsonValue({ maxDepth: 1 }),
        ),
        multi_caller: fc.jsonValue({ maxDepth: 2 }),
        reference_id: fc.jsonValue({ maxDepth: 1 }),
        calls: fc.oneof(
          fc.constant([
            {
              target_address: '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707',
              function_signature: 'mint(address,uint256)',
              function_args: [
                '0x000000000000000000000000000000000000b0b0',
                '1',
              ],
            },
          ]),
          fc.jsonValue({ maxDepth: 3 }),
        ),
        expires_at: fc.oneof(
          fc.constant('2100-01-01T00:00:00Z'),
          fc.jsonValue({ maxDepth: 1 }),
        ),
      },
      { requiredKeys: [] },
    )
    .map((value) => JSON.stringify(value)),
  fc.constantFrom('', 'null', '{', '[', '"\\ud800"', '{"__proto__":{"a":1}}'),
  fc.string(),
)

/** A form body, for the identity provider's forms and OAuth endpoints. */
const formBody = fc
  .array(
    fc.tuple(
      fc.constantFrom(
        'grant_type',
        'client_id',
        'code',
        'code_verifier',
        'redirect_uri',
        'refresh_token',
        'device_code',
        'token',
        'token_type_hint',
        'scope',
        'audience',
        'email',
        'user_code',
        'xsrf',
        'confirm',
        'abort',
        'logout',
        'resource',
      ),
      fc.oneof(
        queryValue,
        fc.emailAddress().map((email) => encodeURIComponent(email)),
      ),
    ),
    { maxLength: 6 },
  )
  .map((pairs) => pairs.map(([name, value]) => `${name}=${value}`).join('&'))

const origin = fc.constantFrom(
  undefined,
  'http://localhost:5173',
  'http://127.0.0.1:63315',
  'https://evil.example',
  'null',
)

const contentType = fc.constantFrom(
  undefined,
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
)

/** Cookies by the provider's names, with hostile values. */
const cookie = fc.option(
  fc
    .array(
      fc.tuple(
        fc.constantFrom(
          '_session',
          '_session.sig',
          '_session.legacy',
          '_interaction',
          '_interaction.sig',
          '_interaction_resume',
          'x',
        ),
        queryValue,
      ),
      { minLength: 1, maxLength: 4 },
    )
    .map((pairs) =>
      pairs.map(([name, value]) => `${name}=${value}`).join('; '),
    ),
  { freq: 3 },
)

const accept = fc.constantFrom(
  undefined,
  '*/*',
  'application/json',
  'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
)

/** Fills a route's `:name` segments with a real value or garbage. */
const pathOf = (route: Route) =>
  fc
    .tuple(
      fc.boolean(),
      fc.oneof(
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.constantFrom('%E2%80%AE', '..', '%2F', '%00', 'a'.repeat(2_000)),
      ),
      query,
    )
    .map(([real, garbage, search]) => {
      const filled = route.path.replace(/:(\w+)/g, (_, name: string) => {
        const known: Record<string, string> = {
          flowId: state.flowId,
          uid: state.interaction.uid,
          id: state.verdictId,
          chainName: state.chainName,
          contract: state.contract,
          tokenId: state.tokenId,
          account: state.account,
          metadataId: state.metadataId,
          activityId: state.activityId,
          userId: state.sub,
          mintContract: state.mintContract,
          referenceId: state.referenceId,
          imxUser: state.imxUser,
          exchangeId: state.exchangeId,
          transferId: '1',
          orderId: '1',
          tradeId: '1',
          mintId: '1',
          projectId: '1',
          balanceToken: 'eth',
          imxCollection: state.imxCollection,
          imxTokenId: state.imxTokenId,
        }
        const value = known[name] ?? ''
        if (real && value !== '') return value
        try {
          return encodeURIComponent(garbage)
        } catch {
          return garbage.startsWith('%') ? garbage : 'x'
        }
      })
      return `${filled}${search}`
    })

/** A request to one of the routes, of any kind. */
const anyRequest: fc.Arbitrary<Sent> = fc
  .constantFrom(...routes)
  .chain((route) =>
    fc.record({
      route: fc.constant(route),
      method: fc.oneof(
        { weight: 6, arbitrary: fc.constant(route.method) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            'GET',
            'POST',
            'PUT',
            'DELETE',
            'PATCH',
            'OPTIONS',
            'HEAD',
            'PROPFIND',
          ),
        },
      ),
      path: fc.oneof(
        { weight: 6, arbitrary: pathOf(route) },
        {
          weight: 1,
          arbitrary: fc
            .string({ maxLength: 60 })
            .map(
              (text) => `/${encodeURI(text.replace(/[\ud800-\udfff]/g, ''))}`,
            ),
        },
      ),
      body: fc.oneof(
        { weight: 4, arbitrary: jsonBody },
        { weight: 2, arbitrary: formBody },
        { weight: 1, arbitrary: fc.constant(undefined) },
      ),
      origin,
      contentType,
      accept,
      cookie,
      real: fc.boolean(),
    }),
  )
  .map(
    ({
      route,
      method,
      path,
      body,
      origin,
      contentType,
      accept,
      cookie,
      real,
    }) => {
      const headers: Record<string, string> = {}
      if (cookie !== null) headers.cookie = cookie
      if (origin !== undefined) headers.origin = origin
      if (contentType !== undefined) headers['content-type'] = contentType
      if (accept !== undefined) headers.accept = accept
      let sentBody = method === 'GET' || method === 'HEAD' ? undefined : body
      if (real && route.session === 'interaction')
        headers.cookie = state.interaction.cookie
      if (real && route.session === 'bearer')
        headers.authorization = `Bearer ${state.accessToken}`
      if (real && route.session === 'tee') {
        headers.authorization = `Bearer ${state.idToken}`
        headers['x-magic-api-key'] = 'pk_live_EMULATORCUSTODY000'
        headers['x-oidc-provider-id'] = 'emulator-passport-identity'
        headers['x-magic-chain'] = 'ETH'
      }
      if (real && route.session === 'key')
        headers['x-immutable-api-key'] = platformApiKey
      if (real && route.session === 'device') {
        headers.cookie = state.device.cookie
        sentBody = `xsrf=${state.device.xsrf}&${sentBody ?? ''}`
        headers['content-type'] = 'application/x-www-form-urlencoded'
      }
      return { route, method, path, headers, body: sentBody }
    },
  )

/** A deeply nested body or query, to a route that reads one. */
const deepRequest: fc.Arbitrary<Sent> = fc
  .tuple(
    fc.constantFrom(...routes),
    deep,
    fc.constantFrom('body', 'rpc-id', 'rpc-params', 'flow-id', 'query'),
  )
  .map(([route, nestedJson, where]) => {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
    }
    const rpc = (field: 'id' | 'params') =>
      `{"jsonrpc":"2.0","method":"eth_chainId","${field === 'id' ? 'params":[],"id' : 'id":1,"params'}":${nestedJson}}`
    const body =
      where === 'body'
        ? nestedJson
        : where === 'rpc-id'
          ? rpc('id')
          : where === 'rpc-params'
            ? rpc('params')
            : where === 'flow-id'
              ? `{"params":"${encodeParams({ API_KEY: 'pk_live_EMULATOR0000000000', DOMAIN_ORIGIN: 'http://127.0.0.1:5173', host: '127.0.0.1', sdk: 'magic-sdk', version: '33.13.0', locale: 'en_US' })}","request":{"jsonrpc":"2.0","id":${nestedJson},"method":"eth_chainId","params":[]}}`
              : undefined
    const path =
      where === 'query'
        ? `${route.path.replace(/:(\w+)/g, 'x')}?${'a['.repeat(500)}${']'.repeat(500)}=${encodeURIComponent(nestedJson.slice(0, 4_000))}`
        : route.path.replace(/:(\w+)/g, 'x')
    const method = body === undefined ? 'GET' : 'POST'
    return { route, method, path, headers, body }
  })

describe('the emulator, under hostile input', () => {
  test('behavior: every route answers malformed, random and wrongly typed input with a 4xx or less, in its form', async () => {
    await fc.assert(fc.asyncProperty(anyRequest, check), {
      numRuns: 3_000,
      interruptAfterTimeLimit: 25_000,
    })
  })

  test('behavior: every route answers input nested thousands deep', async () => {
    await fc.assert(fc.asyncProperty(deepRequest, check), {
      numRuns: 150,
      interruptAfterTimeLimit: 10_000,
    })
  })

  test('behavior: every route answers a body at the limit, and refuses one over it with 413 before reading it', async () => {
    for (const route of routes) {
      const path = route.path.replace(/:(\w+)/g, 'x')
      // At the limit: a JSON string of exactly the limit, parsed in full.
      const atLimit = `"${'a'.repeat(defaultBodyLimit - 2)}"`
      await check({
        route,
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json' },
        body: atLimit,
      })
      // Over it: only the head is sent, so the answer cannot have waited
      // for the body.
      const over = await new Promise<Answer>((resolve, reject) => {
        const url = new URL(base[route.service])
        const req = request(
          {
            host: url.hostname,
            port: url.port,
            method: 'POST',
            path,
            agent: false,
            headers: {
              'content-type': 'application/json',
              'content-length': defaultBodyLimit + 1,
            },
          },
          (res) => {
            let body = ''
            res.setEncoding('utf8')
            res.on('data', (chunk) => {
              body += chunk
            })
            res.on('end', () => {
              req.destroy()
              resolve({
                status: res.statusCode ?? 0,
                headers: res.headers,
                body,
              })
            })
          },
        )
        req.on('error', reject)
        req.flushHeaders()
      })
      expect({ route: caseOf({ route } as Sent), status: over.status }).toEqual(
        { route: caseOf({ route } as Sent), status: 413 },
      )
      expect(JSON.parse(over.body)).toEqual({
        error: `The request body is larger than ${defaultBodyLimit} bytes.`,
      })
    }
  })

  test("error: the hostile probes of every service are refused: another player's wallet, a skipped click, gas 2^48, a path that half-decodes, odd calldata, framing", async () => {
    const foreign = 'https://evil.example'
    const json = (body: unknown, headers: Record<string, string> = {}) => ({
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    })
    const bearer = { authorization: `Bearer ${state.accessToken}` }

    // The StarkEx exchange mints for loopback pages only, and moves nothing
    // on a signature by another key, even with the player's token.
    const mint = await fetch(
      `${base.starkex}/dev/starkex/mint`,
      json(
        {
          user: state.imxUser,
          token: { type: 'ETH', data: { decimals: 18 } },
          quantity: '100000000',
        },
        { origin: foreign },
      ),
    )
    expect(mint.status).toBe(403)
    const exchangeSignable = (await (
      await fetch(
        `${base.starkex}/v2/exchanges/${state.exchangeId}/signable-transfer-details`,
        json({
          sender: state.imxUser,
          token: { type: 'ETH', data: { decimals: 18 } },
          amount: '100000000',
          receiver: (
            (await (
              await fetch(`${base.starkex}/v3/exchanges/${state.exchangeId}`)
            ).json()) as { data: { provider_wallet_address: string } }
          ).data.provider_wallet_address,
        }),
      )
    ).json()) as Record<string, unknown> & { payload_hash: string }
    const { payload_hash, ...fields } = exchangeSignable
    const forgedTransfer = await fetch(
      `${base.starkex}/v2/exchanges/${state.exchangeId}/transfers`,
      json(
        {
          sender_stark_key: fields.sender_stark_key,
          sender_vault_id: fields.sender_vault_id,
          receiver_stark_key: fields.receiver_stark_key,
          receiver_vault_id: fields.receiver_vault_id,
          asset_id: fields.asset_id,
          amount: fields.amount,
          nonce: fields.nonce,
          expiration_timestamp: fields.expiration_timestamp,
          stark_signature: starkSign(payload_hash, newStarkKey().privateKey),
        },
        bearer,
      ),
    )
    expect(forgedTransfer.status).toBe(400)
    expect(((await forgedTransfer.json()) as { message: string }).message).toBe(
      `The Stark signature does not sign payload_hash ${payload_hash} for Stark key ${state.starkKey}.`,
    )

    // An order of the player's NFT signed by another key creates nothing.
    const orderSignable = await fetch(
      `${base.starkex}/v3/signable-order-details`,
      json(
        {
          user: state.imxUser,
          amount_sell: '1',
          token_sell: {
            type: 'ERC721',
            data: {
              token_address: state.imxCollection,
              token_id: state.imxTokenId,
            },
          },
          amount_buy: '100000000',
          token_buy: { type: 'ETH', data: { decimals: 18 } },
        },
        bearer,
      ),
    )
    expect(orderSignable.status).toBe(200)
    const order = (await orderSignable.json()) as Record<string, unknown> & {
      payload_hash: string
    }
    const forgedOrder = await fetch(
      `${base.starkex}/v3/orders`,
      json(
        {
          amount_buy: order.amount_buy,
          amount_sell: order.amount_sell,
          asset_id_buy: order.asset_id_buy,
          asset_id_sell: order.asset_id_sell,
          expiration_timestamp: order.expiration_timestamp,
          nonce: order.nonce,
          stark_key: order.stark_key,
          vault_id_buy: order.vault_id_buy,
          vault_id_sell: order.vault_id_sell,
          stark_signature: starkSign(
            order.payload_hash,
            newStarkKey().privateKey,
          ),
        },
        bearer,
      ),
    )
    expect(forgedOrder.status).toBe(400)
    expect(((await forgedOrder.json()) as { message: string }).message).toBe(
      `The Stark signature does not sign payload_hash ${order.payload_hash} for Stark key ${state.starkKey}.`,
    )

    // The fuzzing may have set any rules: set the player's own.
    const rules = await fetch(
      `${base.api}/dev/guardian/rules?wallet=${state.wallet}`,
      {
        ...json({ confirmErc191: true, confirmUnknownContracts: true }),
        method: 'PUT',
      },
    )
    expect(rules.status).toBe(200)

    // The relayer acts for the token's own wallet only.
    const cosign = await fetch(
      `${base.relayer}/v1/transactions`,
      json(
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'im_sign',
          params: [
            {
              chainId: `eip155:${emulator.info.chainId}`,
              address: '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf',
              message: 'hello',
            },
          ],
        },
        { ...bearer, origin: foreign },
      ),
    )
    expect(
      ((await cosign.json()) as { error: { code: number } }).error.code,
    ).toBe(4100)

    // The dApp's token cannot stand for the player's click.
    const evaluated = await fetch(
      `${base.api}/guardian/v1/erc191-messages/evaluate`,
      json(
        { chainID: `eip155:${emulator.info.chainId}`, payload: 'click me' },
        bearer,
      ),
    )
    const { messageId, confirmationRequired } = (await evaluated.json()) as {
      messageId: string
      confirmationRequired: boolean
    }
    expect(confirmationRequired).toBe(true)
    const skipped = await fetch(
      `${base.api}/guardian/v1/messages/${messageId}/approve`,
      json({}, { ...bearer, origin: foreign }),
    )
    expect(skipped.status).toBe(403)
    // Nor by its payload hash, on the ERC-191 route.
    const skippedByHash = await fetch(
      `${base.api}/guardian/v1/erc191-messages/${hashMessage('click me')}/approve`,
      json({}, { ...bearer, origin: foreign }),
    )
    expect(skippedByHash.status).toBe(403)
    const verdict = await fetch(`${base.passport}/dev/verdicts/${messageId}`)
    expect(((await verdict.json()) as { state: string }).state).toBe('pending')

    // The key-protected routes refuse a page without the key, token or not.
    const crafted = await fetch(
      `${base.api}/v1/chains/${emulator.info.passport.overrides.zkEvmChainName}/crafting/sign`,
      json({}, { ...bearer, origin: foreign }),
    )
    expect(crafted.status).toBe(401)
    const metadata = await fetch(
      `${base.api}/passport-mr/v1/users/${state.sub}/metadata`,
      { headers: { ...bearer, origin: foreign } },
    )
    expect(metadata.status).toBe(401)

    // A delegateCall with no data is a contract call.
    const delegate = await fetch(
      `${base.api}/guardian/v1/transactions/evm/evaluate`,
      json(
        {
          chainType: 'evm',
          chainId: `eip155:${emulator.info.chainId}`,
          transactionData: {
            nonce: '0',
            userAddress: state.wallet,
            metaTransactions: [
              {
                delegateCall: true,
                revertOnError: true,
                gasLimit: '0',
                target: '0x0000000000000000000000000000000000000bad',
                value: '0',
                data: '0x',
              },
            ],
          },
        },
        bearer,
      ),
    )
    expect(await delegate.json()).toMatchObject({ confirmationRequired: true })

    // The chain runs a foreign page's calls under the gas cap.
    const started = Date.now()
    const pinned = await fetch(
      base.chain,
      json(
        Array.from({ length: 10 }, (_, id) => ({
          jsonrpc: '2.0',
          id,
          method: 'eth_call',
          params: [
            { data: '0x5b600056', gas: `0x${(2n ** 48n).toString(16)}` },
            'latest',
          ],
        })),
        { origin: foreign },
      ),
    )
    expect(pinned.status).toBe(400)
    expect(Date.now() - started).toBeLessThan(5_000)

    // A local route spelled so that only part of it decodes.
    const spelled = await fetch(
      `${base.passport}/%64ev/verdicts/${messageId}%C0`,
      {
        headers: { origin: foreign },
      },
    )
    expect(spelled.status).toBe(400)

    // Calldata of half a byte.
    const odd = await fetch(
      `${base.passport}/dev/verdicts`,
      json({
        kind: 'transaction',
        chainId: emulator.info.chainId,
        wallet: state.wallet,
        payload: {
          transactionData: {
            nonce: '0',
            metaTransactions: [
              {
                delegateCall: false,
                revertOnError: true,
                gasLimit: '0',
                target: state.wallet,
                value: '0',
                data: '0x123',
              },
            ],
          },
        },
      }),
    )
    expect(odd.status).toBe(400)

    // The indexer reads no cursor it did not sign, and takes statuses
    // from this machine's pages only.
    const indexer = `${base.api}/v1/chains/${state.chainName}`
    const forged = Buffer.from(
      JSON.stringify(['ListAllNFTs', 'n', '']),
    ).toString('base64url')
    const cursor = await fetch(
      `${indexer}/nfts?page_cursor=${forged}.${'A'.repeat(22)}`,
    )
    expect(cursor.status).toBe(400)
    const status = await fetch(`${base.api}/dev/indexer/verification-status`, {
      ...json(
        { contractAddress: state.contract, status: 'spam' },
        { origin: foreign },
      ),
      method: 'PUT',
    })
    expect(status.status).toBe(403)

    // No site frames the emulator's pages.
    for (const page of [
      `${base.dev}/mailbox/view`,
      `${base.identity}/device`,
    ]) {
      const response = await fetch(page)
      expect({ page, frame: response.headers.get('x-frame-options') }).toEqual({
        page,
        frame: 'DENY',
      })
      expect(response.headers.get('content-security-policy')).toContain(
        "frame-ancestors 'none'",
      )
    }
    // But the logout the game wallet loads in a hidden iframe.
    const logout = await fetch(`${base.identity}/session/end`)
    expect(logout.headers.get('content-type')).toMatch(/^text\/html/)
    expect(logout.headers.get('x-frame-options')).toBe(null)
  })

  test('behavior: afterwards nothing escaped, and the emulator still serves', async () => {
    expect(
      escaped.map(({ kind, error }) => `${kind}: ${String(error)}`),
    ).toEqual([])
    expect(await (await fetch(`${base.dev}/health`)).json()).toEqual({
      ok: true,
    })
    expect(await (await fetch(`${base.passport}/health`)).json()).toEqual({
      ok: true,
    })
    const mailbox = await fetch(emulator.info.mailbox, {
      headers: { origin: 'http://localhost:5173' },
    })
    expect(mailbox.status).toBe(200)
    expect(Array.isArray(await mailbox.json())).toBe(true)
    const chainId = await fetch(emulator.info.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }),
    })
    expect(await chainId.json()).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: '0x7a69',
    })
    const did = await loginByEmail(
      { request: (path, init) => fetch(`${base.magic}${path}`, init) },
      emulator.mailbox,
      'after-the-storm@example.com',
      await createDevice(),
    )
    expect(did).toMatch(/^\S{20,}$/)
    const discovery = await fetch(
      `${base.identity}/.well-known/openid-configuration`,
    )
    expect(discovery.status).toBe(200)
    expect(await discovery.json()).toMatchObject({
      issuer: base.identity,
      token_endpoint: `${base.identity}/oauth/token`,
    })
    const info = await fetch(`${base.api}/passport-profile/v1/user/info`, {
      headers: { authorization: `Bearer ${state.accessToken}` },
    })
    expect(info.status).toBe(200)
    expect(await info.json()).toMatchObject({
      email: 'fuzz-player@example.com',
    })
    const nft = await fetch(
      `${base.api}/v1/chains/${state.chainName}/collections/${state.contract}/nfts/${state.tokenId}`,
    )
    expect(nft.status).toBe(200)
    expect(await nft.json()).toMatchObject({
      result: { token_id: '1', name: 'Test NFT 1' },
    })
    // The minting backend still mints: the request made before the storm
    // is minted, and a new one is taken.
    const mintRequests = `${base.api}/v1/chains/${state.chainName}/collections/${state.mintContract}/nfts/mint-requests`
    const key = { 'x-immutable-api-key': platformApiKey }
    const before = await fetch(`${mintRequests}/${state.referenceId}`, {
      headers: key,
    })
    expect(before.status).toBe(200)
    expect(await before.json()).toMatchObject({
      result: [{ reference_id: state.referenceId, status: 'succeeded' }],
    })
    const after = await fetch(mintRequests, {
      method: 'POST',
      headers: { ...key, 'content-type': 'application/json' },
      body: JSON.stringify({
        assets: [
          {
            reference_id: 'after-the-storm',
            owner_address: state.account,
            metadata: { name: 'Calm' },
          },
        ],
      }),
    })
    expect(after.status).toBe(202)
    const wallet = await fetch(`${base.tee}/v1/wallet`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${state.idToken}`,
        'x-magic-api-key': 'pk_live_EMULATORCUSTODY000',
        'x-oidc-provider-id': 'emulator-passport-identity',
        'x-magic-chain': 'ETH',
      },
    })
    expect(wallet.status).toBe(200)
    // The StarkEx exchange still serves, and nothing unsigned moved the
    // player's funds or NFT.
    const users = await fetch(`${base.starkex}/v1/users/${state.imxUser}`)
    expect(await users.json()).toEqual({ accounts: [state.starkKey] })
    const balance = await fetch(
      `${base.starkex}/v2/balances/${state.imxUser}/eth`,
    )
    expect(await balance.json()).toMatchObject({ balance: state.imxBalance })
    const asset = await fetch(
      `${base.starkex}/v1/assets/${state.imxCollection}/${state.imxTokenId}`,
    )
    expect(await asset.json()).toMatchObject({
      user: state.imxUser.toLowerCase(),
    })
  })
})
