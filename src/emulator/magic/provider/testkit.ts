/**
 * Test helpers for the magic service: a device that makes DPoP proofs and
 * keeps its session, and a client that opens flows on the service's HTTP
 * API and reads their NDJSON lines as they come. Used by the tests; not
 * part of the emulator's runtime. `startChainService` runs the service on
 * a real chain (Anvil, the test contracts) for the chain-backed methods.
 */
import * as jose from 'jose'
import type { Address } from 'viem'
import type * as Rpc from '../../../core/Rpc.js'
import { encodeParams, type Network } from '../../../magic/wire/messages.js'
import { startAnvil } from '../../chain/anvil.js'
import { type Contracts, deployContracts } from '../../chain/deploy.js'
import * as Mailbox from '../../dev/mailbox.js'
import { findFreePort } from '../../net.js'
import { createRegistry, type Registry } from '../../registry/index.js'
import { defaultApiKey, type FlowLine } from './protocol.js'
import { createMagicService } from './service.js'

/** A device: a P-256 key making DPoP proofs, plus its session. */
export type Device = {
  proof(options?: { iat?: number; jti?: string }): Promise<string>
  rt: string | undefined
  deviceShare: string | undefined
  publicJwk: jose.JWK
}

/** A new device with a fresh ES256 key. */
export async function createDevice(
  options: { now?: () => Date } = {},
): Promise<Device> {
  const { now = () => new Date() } = options
  const { privateKey, publicKey } = await jose.generateKeyPair('ES256')
  const publicJwk = await jose.exportJWK(publicKey)
  return {
    publicJwk,
    rt: undefined,
    deviceShare: undefined,
    proof({ iat, jti } = {}) {
      return new jose.SignJWT({
        iat: iat ?? Math.floor(now().getTime() / 1000),
        jti: jti ?? crypto.randomUUID(),
      })
        .setProtectedHeader({ typ: 'dpop+jwt', alg: 'ES256', jwk: publicJwk })
        .sign(privateKey)
    },
  }
}

/** Anything with Hono's `request` (an app) or a base URL. */
export type Target = {
  request: (path: string, init?: RequestInit) => Response | Promise<Response>
}

/** An open flow. */
export type OpenFlow = {
  flowId: string
  /** Every line read so far. */
  lines: FlowLine[]
  /** The next line not yet returned by `next`. */
  next(): Promise<FlowLine>
  /** Reads lines until one matches, returns it. */
  until(match: (line: FlowLine) => boolean): Promise<FlowLine>
  /** Reads until the event `name`, returns its params. */
  event(name: string): Promise<readonly unknown[]>
  /** Reads to the end; returns the `response` line. */
  done(): Promise<Extract<FlowLine, { kind: 'response' }>>
  /** Posts an intermediary answer; returns the HTTP status. */
  answer(eventType: string, args?: unknown): Promise<number>
}

let ids = 0

const rawMarker = Symbol('raw JSON')

/** JSON text to send as is, where {@link toJson} meets it. */
export type RawJson = { readonly [rawMarker]: string }

/**
 * Marks JSON text to be sent as is inside a request built by {@link open}:
 * for values `JSON.stringify` cannot write (nested thousands deep).
 *
 * @example
 * ```ts
 * await call(app, 'eth_getBalance', [rawJson('['.repeat(9999) + ']'.repeat(9999))])
 * ```
 */
export function rawJson(text: string): RawJson {
  return { [rawMarker]: text }
}

/** `JSON.stringify`, with each {@link rawJson} spliced in as its text. */
export function toJson(value: unknown): string {
  const raws: string[] = []
  const text = JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item !== 'object' || item === null || !(rawMarker in item))
      return item
    raws.push((item as RawJson)[rawMarker])
    return `\u0000raw:${raws.length - 1}\u0000`
  })
  return text.replace(
    /"\\u0000raw:(\d+)\\u0000"/g,
    (_match, index: string) => raws[Number(index)] as string,
  )
}

/**
 * Opens a flow for `method`. With a `device`, a fresh proof, its `rt` and
 * device share are sent; its `rt` and share are updated from the response.
 */
export async function open(
  target: Target,
  method: string,
  params: unknown = [],
  options: {
    device?: Device | undefined
    apiKey?: string | undefined
    network?: Network | undefined
    jwt?: string | undefined
    /** The dApp's origin (`DOMAIN_ORIGIN`). @default 'http://127.0.0.1:5173' */
    domainOrigin?: string | undefined
  } = {},
): Promise<OpenFlow> {
  const {
    device,
    apiKey = defaultApiKey,
    network,
    domainOrigin = 'http://127.0.0.1:5173',
  } = options
  const request: Rpc.Request = { jsonrpc: '2.0', id: ++ids, method, params }
  const jwt = options.jwt ?? (device ? await device.proof() : undefined)
  const response = await target.request('/v1/flow', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: toJson({
      params: encodeParams({
        API_KEY: apiKey,
        DOMAIN_ORIGIN: domainOrigin,
        ETH_NETWORK: network,
        host: '127.0.0.1',
        sdk: 'magic-sdk',
        version: '33.13.0',
        locale: 'en_US',
      }),
      request,
      jwt,
      rt: jwt ? device?.rt : undefined,
      deviceShare: device?.deviceShare,
    }),
  })
  const flowId = response.headers.get('x-flow-id') ?? ''
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ''
  const lines: FlowLine[] = []
  let read = 0
  const pull = async (): Promise<FlowLine> => {
    for (;;) {
      const newline = buffer.indexOf('\n')
      if (newline !== -1) {
        const line = JSON.parse(buffer.slice(0, newline)) as FlowLine
        buffer = buffer.slice(newline + 1)
        lines.push(line)
        if (line.kind === 'response' && device) {
          if (line.rt) device.rt = line.rt
          if (line.deviceShare) device.deviceShare = line.deviceShare
        }
        return line
      }
      const chunk = await reader.read()
      if (chunk.done) throw new Error(`The flow ${method} ended early.`)
      buffer += chunk.value
    }
  }
  const flow: OpenFlow = {
    flowId,
    lines,
    async next() {
      if (read < lines.length) return lines[read++] as FlowLine
      const line = await pull()
      read++
      return line
    },
    async until(match) {
      for (;;) {
        const line = await flow.next()
        if (match(line)) return line
      }
    },
    async event(name) {
      const line = await flow.until(
        (line) => line.kind === 'event' && line.event === name,
      )
      return (line as Extract<FlowLine, { kind: 'event' }>).params
    },
    async done() {
      return (await flow.until((line) => line.kind === 'response')) as Extract<
        FlowLine,
        { kind: 'response' }
      >
    },
    async answer(eventType, args) {
      const answered = await target.request(`/v1/flow/${flowId}/intermediary`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: toJson({ eventType, args }),
      })
      return answered.status
    },
  }
  return flow
}

/** Opens a flow and returns its final JSON-RPC response. */
export async function call(
  target: Target,
  method: string,
  params: unknown = [],
  options: Parameters<typeof open>[3] = {},
): Promise<Rpc.Response> {
  return (await (await open(target, method, params, options)).done()).response
}

/** Events of a flow's lines, in order: `[name, ...params]`. */
export function eventsOf(lines: readonly FlowLine[]): unknown[][] {
  return lines.flatMap((line) =>
    line.kind === 'event' ? [[line.event, ...line.params]] : [],
  )
}

/**
 * Logs `device` in by email OTP (headless), reading the code from
 * `mailbox`. Returns the DID token.
 */
export async function loginByEmail(
  target: Target,
  mailbox: Mailbox.Store,
  email: string,
  device: Device,
): Promise<string> {
  const flow = await open(
    target,
    'magic_auth_login_with_email_otp',
    [{ email, showUI: false }],
    { device },
  )
  await flow.event('email-otp-sent')
  await flow.answer('verify-email-otp', mailbox.list({ to: email })[0]?.code)
  const { response } = await flow.done()
  if (typeof response.result !== 'string')
    throw new Error(`Login failed: ${JSON.stringify(response.error)}`)
  return response.result
}

/**
 * A magic service on an injected clock (no chain: users are not funded),
 * for tests. `advance(ms)` moves the clock (back, with a negative `ms`).
 *
 * @param options.start - The clock's first time. @default 2026-01-01T00:00:00Z
 */
export function createTestService(options: { start?: Date | undefined } = {}) {
  const clock = { now: options.start ?? new Date('2026-01-01T00:00:00Z') }
  const now = () => clock.now
  const mailbox = Mailbox.create({ now })
  const registry = createRegistry({ now })
  const app = createMagicService({
    mailbox,
    registry,
    chain: { rpcUrl: 'http://127.0.0.1:1', chainId: 31337 },
    now,
  })
  const advance = (ms: number) => {
    clock.now = new Date(clock.now.getTime() + ms)
  }
  return { app, mailbox, registry, now, advance }
}

/** The code of the newest message of `kind` for `to`. */
export function codeOf(
  mailbox: Mailbox.Store,
  to: string,
  kind = 'email-otp',
): string | undefined {
  return mailbox.list({ to }).find((message) => message.kind === kind)?.code
}

/** A 6-digit code that is not `code`. */
export function wrongCode(code: string | undefined): string {
  return code === '000000' ? '000001' : '000000'
}

/** A magic service on a real chain, from {@link startChainService}. */
export type ChainService = {
  /** Anvil, on a free port. */
  anvil: Awaited<ReturnType<typeof startAnvil>>
  /** The test contracts, deployed on `anvil`. */
  contracts: Contracts
  app: ReturnType<typeof createMagicService>
  mailbox: Mailbox.Store
  /** The registry, funding new users on `anvil`. */
  registry: Registry
  /**
   * A new device logged in (headless email OTP) as a new user
   * `user<n>@example.com`, with that user's address.
   */
  loggedIn(): Promise<{ device: Device; address: Address }>
  /** Stops Anvil. */
  stop(): Promise<void>
}

/**
 * Starts Anvil on a free port, deploys the test contracts and creates a
 * magic service on that chain (real clock, users funded), for the tests of
 * the chain-backed methods. Call `stop()` when done.
 *
 * @example
 * ```ts
 * let service: ChainService
 * beforeAll(async () => {
 *   service = await startChainService()
 * }, 60_000)
 * afterAll(() => service?.stop())
 * ```
 */
export async function startChainService(): Promise<ChainService> {
  const anvil = await startAnvil({ port: await findFreePort() })
  let contracts: Contracts
  try {
    contracts = await deployContracts({ rpcUrl: anvil.rpcUrl })
  } catch (error) {
    await anvil.stop()
    throw error
  }
  const mailbox = Mailbox.create()
  const registry = createRegistry({ rpcUrl: anvil.rpcUrl })
  const app = createMagicService({
    mailbox,
    registry,
    chain: { rpcUrl: anvil.rpcUrl, chainId: anvil.chainId },
    tokens: {
      erc20: contracts.erc20,
      erc721: contracts.testErc721,
      erc1155: contracts.testErc1155,
      sponsoredCallDelegate: contracts.sponsoredCallDelegate,
    },
  })
  let users = 0
  const loggedIn = async () => {
    const device = await createDevice()
    const email = `user${++users}@example.com`
    await loginByEmail(app, mailbox, email, device)
    return { device, address: registry.find({ email })!.address }
  }
  return {
    anvil,
    contracts,
    app,
    mailbox,
    registry,
    loggedIn,
    stop: () => anvil.stop(),
  }
}
