/**
 * Property tests of every route of the iframe wallet's provider, through its
 * real HTTP server: arbitrary JSON values, values nested thousands deep,
 * huge strings, wrong types at every field and bodies that are not JSON.
 * Whatever arrives, each answer is below 500 and well formed (a JSON body,
 * a link's HTML page, or for `POST /v1/flow` an NDJSON stream that ends
 * with its `response` line), no promise rejects unhandled, and afterwards a
 * normal headless email-OTP login still works.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { encodeParams } from '../../../magic/wire/messages.js'
import * as Mailbox from '../../dev/mailbox.js'
import { findFreePort } from '../../net.js'
import { createRegistry } from '../../registry/index.js'
import { defaultBodyLimit, type Running, startServer } from '../../server.js'
import { handlers } from './methods/index.js'
import { defaultApiKey, type FlowLine } from './protocol.js'
import { createMagicService } from './service.js'
import {
  call,
  createDevice,
  loginByEmail,
  open,
  type Target,
} from './testkit.js'

let server: Running
let target: Target
const mailbox = Mailbox.create()
const rejections: unknown[] = []
const onRejection = (reason: unknown) => rejections.push(reason)

beforeAll(async () => {
  process.on('unhandledRejection', onRejection)
  const app = createMagicService({
    mailbox,
    registry: createRegistry(),
    chain: { rpcUrl: 'http://127.0.0.1:1', chainId: 31337 },
    // Flows the fuzzer leaves waiting end quickly.
    flowTimeout: 500,
  })
  server = await startServer({
    fetch: app.fetch,
    port: await findFreePort(),
    name: 'magic',
    localOnly: ['/dev/'],
  })
  target = {
    request: (path, init) => fetch(`${server.url}${path}`, init),
  }
})

afterAll(async () => {
  process.off('unhandledRejection', onRejection)
  await server?.stop()
})

/*
 * JSON texts: a value JSON.stringify can write, a value nested thousands
 * deep (which it cannot), a string close to the body limit, or a value of
 * a type no field expects.
 */
const depth = fc.integer({ min: 1_000, max: 60_000 })
const deepArray = depth.map((n) => `${'['.repeat(n)}${']'.repeat(n)}`)
const deepObject = depth.map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`)
const deepMixed = depth
  .map((n) => Math.floor(n / 2))
  .map((n) => `${'[{"a":'.repeat(n)}null${'}]'.repeat(n)}`)
const hugeString = fc
  .integer({ min: 100_000, max: 1_000_000 })
  .map((n) => JSON.stringify('x'.repeat(n)))
const wrongType = fc.constantFrom(
  'null',
  'true',
  'false',
  '0',
  '-1',
  '1e308',
  '""',
  '[]',
  '{}',
  '"\\u0000"',
)
const anyJson = fc
  .jsonValue({ maxDepth: 4 })
  .map((value) => JSON.stringify(value))
const value = fc.oneof(
  { weight: 3, arbitrary: anyJson },
  { weight: 2, arbitrary: wrongType },
  { weight: 1, arbitrary: deepArray },
  { weight: 1, arbitrary: deepObject },
  { weight: 1, arbitrary: deepMixed },
  { weight: 1, arbitrary: hugeString },
)
/** Text that is not JSON, or not UTF-8. */
const notJson = fc.oneof(
  fc.string(),
  fc.constantFrom('{', '[1,', '{"a":}', 'undefined', "{'a':1}", '\u0000'),
  fc
    .uint8Array({ maxLength: 64 })
    .map((bytes) => Buffer.from(bytes).toString('latin1')),
)

/** `{ "key": text, … }` from texts; an `undefined` text leaves its key out. */
function object(fields: Record<string, string | undefined>): string {
  const members = Object.entries(fields)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([key, text]) => `${JSON.stringify(key)}:${text}`)
  return `{${members.join(',')}}`
}

/** A field: absent, or any value. */
const field = (arbitrary: fc.Arbitrary<string> = value) =>
  fc.option(arbitrary, { nil: undefined, freq: 3 })

const validParams = JSON.stringify(
  encodeParams({
    API_KEY: defaultApiKey,
    DOMAIN_ORIGIN: 'http://127.0.0.1:5173',
    host: '127.0.0.1',
    sdk: 'magic-sdk',
    version: '33.13.0',
    locale: 'en_US',
  }),
)
const methodName = fc.oneof(
  fc.constantFrom(...Object.keys(handlers)).map((name) => JSON.stringify(name)),
  value,
)
const paramsArray = fc
  .array(value, { maxLength: 3 })
  .map((items) => `[${items.join(',')}]`)
/** A JSON-RPC request whose every member may be of any type. */
const rpcRequest = fc
  .record({
    jsonrpc: field(fc.constant('"2.0"')),
    id: field(fc.oneof(fc.constantFrom('1', '"a"', 'null'), value)),
    method: field(methodName),
    params: field(fc.oneof(paramsArray, value)),
  })
  .map(object)
const flowBody = fc.oneof(
  { weight: 1, arbitrary: value },
  { weight: 1, arbitrary: notJson },
  {
    weight: 4,
    arbitrary: fc
      .record({
        params: field(fc.oneof(fc.constant(validParams), value)),
        request: field(fc.oneof(rpcRequest, value)),
        jwt: field(),
        rt: field(),
        deviceShare: field(),
      })
      .map(object),
  },
)

/** Sends `body` with a JSON content type. */
function post(path: string, body: string) {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  })
}

/** Asserts an answer that is not a flow stream: below 500, JSON. */
async function expectJsonAnswer(response: Response) {
  expect(response.status).toBeLessThan(500)
  expect(response.headers.get('content-type')).toMatch(/^application\/json/)
  const body = JSON.parse(await response.text()) as Record<string, unknown>
  if (response.status >= 400) expect(typeof body.error).toBe('string')
  return body
}

/** Asserts a well-formed flow stream ending with its `response` line. */
async function expectFlowAnswer(response: Response) {
  if (response.headers.get('content-type') !== 'application/x-ndjson')
    return expectJsonAnswer(response)
  expect(response.status).toBe(200)
  const lines = (await response.text())
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as FlowLine)
  const last = lines.at(-1)
  expect(last?.kind).toBe('response')
  expect(lines.filter((line) => line.kind === 'response')).toHaveLength(1)
  const { response: rpc } = last as Extract<FlowLine, { kind: 'response' }>
  expect(rpc.jsonrpc).toBe('2.0')
  expect(['string', 'number', 'object']).toContain(typeof rpc.id)
  if (rpc.error) {
    expect(typeof rpc.error.code).toBe('number')
    expect(typeof rpc.error.message).toBe('string')
  } else expect('result' in rpc).toBe(true)
  return rpc
}

const runs = { numRuns: 60 }

describe('every route answers any input below 500, well formed', () => {
  test('POST /v1/flow', async () => {
    await fc.assert(
      fc.asyncProperty(flowBody, async (body) => {
        await expectFlowAnswer(await post('/v1/flow', body))
      }),
      { numRuns: 120 },
    )
  })

  test('POST /v1/flow/:flowId/intermediary (unknown and running flows)', async () => {
    let emails = 0
    const answer = fc.oneof(
      { weight: 1, arbitrary: value },
      { weight: 1, arbitrary: notJson },
      {
        weight: 3,
        arbitrary: fc
          .record({
            eventType: field(
              fc.oneof(
                fc.constantFrom(
                  '"verify-email-otp"',
                  '"cancel"',
                  '"@link-opened"',
                  '"lost-device"',
                ),
                value,
              ),
            ),
            args: field(),
          })
          .map(object),
      },
    )
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.string(),
        answer,
        async (running, flowId, body) => {
          if (!running) {
            await expectJsonAnswer(
              await post(
                `/v1/flow/${encodeURIComponent(flowId)}/intermediary`,
                body,
              ),
            )
            return
          }
          const flow = await open(target, 'magic_auth_login_with_email_otp', [
            { email: `fuzz${++emails}@example.com`, showUI: false },
          ])
          await flow.event('email-otp-sent')
          await expectJsonAnswer(
            await post(`/v1/flow/${flow.flowId}/intermediary`, body),
          )
          await flow.answer('cancel')
          const { response } = await flow.done()
          expect(response.error?.code).toBeTypeOf('number')
        },
      ),
      runs,
    )
  })

  test('GET /v1/magic-link/:token and /v1/device-approval/:token', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('magic-link', 'device-approval'),
        // A URL drops `.` and `..` path segments before it is sent.
        fc.string({ minLength: 1 }).filter((token) => !/^\.\.?$/.test(token)),
        fc.string(),
        async (kind, token, query) => {
          const response = await fetch(
            `${server.url}/v1/${kind}/${encodeURIComponent(token)}?${encodeURIComponent(query)}`,
          )
          expect(response.status).toBe(410)
          expect(response.headers.get('content-type')).toMatch(/^text\/html/)
          expect(await response.text()).toContain(
            'This link is not valid or was already used.',
          )
        },
      ),
      runs,
    )
  })

  test('the /send app: GET /send, /send/, /app.js, /app.css with any query', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/send', '/send/', '/app.js', '/app.css'),
        fc.string(),
        async (path, query) => {
          const response = await fetch(
            `${server.url}${path}?params=${encodeURIComponent(query)}`,
          )
          expect(response.status).toBe(200)
          await response.arrayBuffer()
        },
      ),
      { numRuns: 20 },
    )
  }, 30_000)

  test('POST /dev/users/device-approval', async () => {
    const body = fc.oneof(
      value,
      notJson,
      fc
        .record({
          email: field(fc.oneof(fc.constant('"fuzz@example.com"'), value)),
          required: field(fc.oneof(fc.constantFrom('true', 'false'), value)),
        })
        .map(object),
    )
    await fc.assert(
      fc.asyncProperty(body, async (text) => {
        await expectJsonAnswer(await post('/dev/users/device-approval', text))
      }),
      runs,
    )
  })

  test('POST /dev/oidc-providers', async () => {
    const body = fc.oneof(
      value,
      notJson,
      fc
        .record({
          providerId: field(
            fc.oneof(fc.constantFrom('"idp-a"', '"idp-b"'), value),
          ),
          issuer: field(fc.oneof(fc.constant('"https://idp.example"'), value)),
          jwksUri: field(
            fc.oneof(
              fc.constantFrom(
                '"https://idp.example/jwks.json"',
                '"http://127.0.0.1:1/jwks.json"',
                '"http://10.0.0.1/jwks.json"',
                '"data:application/json,{}"',
              ),
              value,
            ),
          ),
          audience: field(),
        })
        .map(object),
    )
    await fc.assert(
      fc.asyncProperty(body, async (text) => {
        const response = await post('/dev/oidc-providers', text)
        const answer = await expectJsonAnswer(response)
        // Several fields near the limit can add up to a body over it.
        const over = Buffer.byteLength(text) > defaultBodyLimit
        expect(over ? [413] : [200, 400, 409]).toContain(response.status)
        if (response.status === 200)
          expect(Object.keys(answer)).toEqual(
            expect.arrayContaining(['providerId', 'issuer', 'jwksUri']),
          )
      }),
      runs,
    )
  })

  test('any method and path, percent-encoding broken or not, answers below 500', async () => {
    // Raw segments keep `%` sequences that are not valid percent-encoding.
    const segment = fc.oneof(
      fc.string().map(encodeURIComponent),
      fc.string().map((text) => text.replace(/[/?#\\]/g, '')),
      fc.constantFrom('v1', 'flow', 'magic-link', 'dev', '%E0%A4%A', '%ZZ'),
    )
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
        fc.array(segment, { minLength: 1, maxLength: 4 }),
        fc.option(fc.oneof(value, notJson), { nil: undefined }),
        async (method, segments, body) => {
          const path = `/${segments.join('/')}`
          const response = await fetch(`${server.url}${path}`, {
            method,
            headers: { 'content-type': 'application/json' },
            ...(body === undefined || method === 'GET' ? {} : { body }),
          })
          expect(response.status).toBeLessThan(500)
          await response.arrayBuffer()
        },
      ),
      runs,
    )
  })
})

describe('afterwards', () => {
  test('behavior: no promise rejected unhandled, and a headless email-OTP login still works', async () => {
    // Flows the fuzzer left waiting have timed out by now.
    await new Promise((resolve) => setTimeout(resolve, 600))
    const device = await createDevice()
    const token = await loginByEmail(
      target,
      mailbox,
      'after-fuzz@example.com',
      device,
    )
    expect(token).toMatch(/^[A-Za-z0-9+/]+=*$/)
    expect(
      (await call(target, 'magic_is_logged_in', [], { device })).result,
    ).toBe(true)
    expect(rejections).toEqual([])
  })
})
