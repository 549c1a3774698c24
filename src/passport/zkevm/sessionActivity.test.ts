import { describe, expect, test, vi } from 'vitest'
import { filePlatform } from '../../../test/unit/setup/zkevm.js'
import * as Storage from '../../core/Storage.js'
import type { SessionActivityRule } from '../../emulator/index.js'
import type { Exchange, Reply } from '../../emulator/testkit.js'
import { paths } from '../wire/api.js'
import {
  create,
  localDate,
  type SessionActivityError,
  selectorOf,
  storageKeys,
} from './sessionActivity.js'

/** The platform API, whose session-activity checks the wallet makes. */
const b = filePlatform()

const wallet = '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf'
const contract = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const today = new Date(2026, 10, 25, 12)

/** Sets (or with `null` removes) the client's rule, as a game's operator would. */
async function ruleFor(clientId: string, rule: SessionActivityRule | null) {
  const response = await fetch(`${b().api.url}/dev/session-activity`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientId, rule }),
  })
  if (response.status !== 200)
    throw new Error(`Rule: ${response.status} ${await response.text()}`)
}

/** The checks the API received, oldest first. */
const checks = (): Exchange[] => b().api.to(paths.sessionActivityCheck)

/** A sleep the test releases by hand (no timers). */
function manualSleep() {
  const waits: { ms: number; release(): void }[] = []
  const sleep = (ms: number, signal: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      waits.push({ ms, release: resolve })
      signal.addEventListener('abort', () => reject(signal.reason), {
        once: true,
      })
    })
  return { sleep, waits }
}

/** The path and query of each check the API received. */
function queries(
  received: { url: string }[],
): [string, Record<string, string>][] {
  return received.map((request) => {
    const url = new URL(request.url, 'http://x')
    return [url.pathname, Object.fromEntries(url.searchParams)]
  })
}

function setup(options: Partial<Parameters<typeof create>[0]> = {}) {
  const errors: SessionActivityError[] = []
  const sent: { to: string; data: string }[] = []
  const storage = Storage.memory()
  const clientId = `client-${crypto.randomUUID()}`
  const activity = create({
    clientId,
    environment: 'sandbox',
    chainId: 31337,
    apiBase: b().api.url,
    storage,
    onError: (error) => errors.push(error),
    now: () => today,
    ...options,
  })
  const sendTransaction = async (tx: { to: string; data: string }) => {
    sent.push(tx)
    return '0xhash'
  }
  return { activity, clientId, errors, sent, storage, sendTransaction }
}

describe('SessionActivity.run', () => {
  test('default: 404 from the check stops the run: one check, nothing sent', async () => {
    // No rule for the client: the API answers 404.
    const { activity, clientId, errors, sent, sendTransaction } = setup()
    await activity.run({ wallet, sendTransaction })
    expect(queries(checks())).toEqual([
      [
        '/v1/sdk/session-activity/check',
        { clientId, wallet, checkCount: '0', sendCount: '0' },
      ],
    ])
    expect(checks().map((check) => check.status)).toEqual([404])
    expect(checks()[0]?.headers.authorization).toBeUndefined()
    expect(sent).toEqual([])
    expect(errors).toEqual([])
  })

  test('behavior: a contract and function: sends its selector, counts the send, resets the check count', async () => {
    const { activity, clientId, sent, storage, sendTransaction } = setup()
    await ruleFor(clientId, {
      contractAddress: contract,
      functionName: 'ping',
      untilSendCount: 1,
    })
    await activity.run({ wallet, sendTransaction })
    expect(sent).toEqual([{ to: contract, data: '0x5c36b186' }])
    expect(await storage.getItem(storageKeys.sendCount)).toBe(
      JSON.stringify({ [clientId]: 1 }),
    )
    expect(await storage.getItem(storageKeys.date)).toBe('2026-11-25')
    await activity.run({ wallet, sendTransaction })
    expect(queries(checks()).map(([, query]) => query)).toEqual([
      { clientId, wallet, checkCount: '0', sendCount: '0' },
      { clientId, wallet, checkCount: '0', sendCount: '1' },
    ])
    // Sent once: the second answer names no call and no delay.
    expect(sent).toHaveLength(1)
  })

  test('behavior: a delay waits that many seconds and checks again, counting the checks', async () => {
    const { sleep, waits } = manualSleep()
    const { activity, clientId, sent, sendTransaction } = setup({ sleep })
    // The game's operator changes the rule between the checks.
    await ruleFor(clientId, { delay: 2 })
    const run = activity.run({ wallet, sendTransaction })
    await vi.waitFor(() => expect(waits).toHaveLength(1))
    expect(waits[0]?.ms).toBe(2000)
    expect(checks()).toHaveLength(1)
    await ruleFor(clientId, {
      contractAddress: contract,
      functionName: 'ping()',
      delay: 1,
      untilSendCount: 1,
    })
    waits[0]?.release()
    await vi.waitFor(() => expect(waits).toHaveLength(2))
    expect(waits[1]?.ms).toBe(1000)
    expect(sent).toEqual([{ to: contract, data: '0x5c36b186' }])
    await ruleFor(clientId, null)
    waits[1]?.release()
    await run
    expect(checks().map((check) => check.status)).toEqual([200, 200, 404])
    expect(queries(checks()).map(([, query]) => query)).toEqual([
      { clientId, wallet, checkCount: '0', sendCount: '0' },
      { clientId, wallet, checkCount: '1', sendCount: '0' },
      { clientId, wallet, checkCount: '0', sendCount: '1' },
    ])
  })

  test('behavior: counts of another local date are reset; those of today are sent', async () => {
    const { activity, clientId, storage, sendTransaction } = setup()
    await storage.setItem(storageKeys.date, '2026-11-24')
    await storage.setItem(
      storageKeys.sendCount,
      JSON.stringify({ [clientId]: 5 }),
    )
    await activity.run({ wallet, sendTransaction })
    expect(await storage.getItem(storageKeys.date)).toBe('2026-11-25')
    expect(await storage.getItem(storageKeys.sendCount)).toBeNull()

    await storage.setItem(
      storageKeys.sendCount,
      JSON.stringify({ [clientId]: 3 }),
    )
    await activity.run({ wallet, sendTransaction })
    expect(queries(checks()).map(([, query]) => query.sendCount)).toEqual([
      '0',
      '3',
    ])
  })

  test('behavior: one run per client id at a time, across instances', async () => {
    // The API holds each check until the test answers it.
    let release: (reply: Reply) => void = () => undefined
    const held = () => new Promise<Reply>((resolve) => (release = resolve))
    b().api.answer({ path: paths.sessionActivityCheck }, held, held)
    const first = setup()
    const second = create({
      clientId: first.clientId,
      environment: 'sandbox',
      chainId: 31337,
      apiBase: b().api.url,
      storage: Storage.memory(),
    })
    const running = first.activity.run({
      wallet,
      sendTransaction: first.sendTransaction,
    })
    await vi.waitFor(() => expect(checks()).toHaveLength(1))
    await first.activity.run({ wallet, sendTransaction: first.sendTransaction })
    await second.run({ wallet, sendTransaction: first.sendTransaction })
    expect(checks()).toHaveLength(1)
    release({ status: 404 })
    await running
    // Done: the next run checks again.
    const next = first.activity.run({
      wallet,
      sendTransaction: first.sendTransaction,
    })
    await vi.waitFor(() => expect(checks()).toHaveLength(2))
    release({ status: 404 })
    await next
  })

  test('behavior: stop ends a waiting run', async () => {
    const { sleep, waits } = manualSleep()
    const { activity, clientId, errors, sendTransaction } = setup({ sleep })
    await ruleFor(clientId, { delay: 60 })
    const run = activity.run({ wallet, sendTransaction })
    await vi.waitFor(() => expect(waits).toHaveLength(1))
    activity.stop()
    await run
    expect(checks()).toHaveLength(1)
    expect(errors).toEqual([])
  })

  test('behavior: a throttled check (429) is sent again through the fetch helper after Retry-After', async () => {
    const { activity, clientId, errors, sent, sendTransaction } = setup()
    await ruleFor(clientId, {
      contractAddress: contract,
      functionName: 'ping',
      untilSendCount: 1,
    })
    b().api.answer(
      { path: paths.sessionActivityCheck },
      { status: 429, headers: { 'retry-after': '0' } },
    )
    await activity.run({ wallet, sendTransaction })
    expect(checks().map((check) => [check.status, check.scripted])).toEqual([
      [429, true],
      [200, false],
    ])
    expect(checks()[1]?.url).toBe(checks()[0]?.url)
    expect(sent).toEqual([{ to: contract, data: '0x5c36b186' }])
    expect(errors).toEqual([])
  })

  test('error: a failed check is reported as "Failed to get details", never thrown', async () => {
    b().api.answer(
      { path: paths.sessionActivityCheck },
      { status: 500, body: { code: 'x' } },
    )
    const { activity, errors, sent, sendTransaction } = setup()
    await expect(activity.run({ wallet, sendTransaction })).resolves.toBe(
      undefined,
    )
    expect(errors.map((error) => [error.message, error.reason])).toEqual([
      ['Failed to get details', 'getDetails'],
    ])
    expect(errors[0]?.cause?.message).toBe('The check answered HTTP 500.')
    expect(sent).toEqual([])
  })

  test('error: a failed send is reported as "Failed to send transaction" and counts nothing', async () => {
    const { activity, clientId, errors, storage } = setup()
    await ruleFor(clientId, { contractAddress: contract, functionName: 'ping' })
    const failure = new Error('relayer down')
    await activity.run({
      wallet,
      sendTransaction: () => Promise.reject(failure),
    })
    expect(errors.map((error) => error.message)).toEqual([
      'Failed to send transaction',
    ])
    expect(errors[0]?.cause).toBe(failure)
    expect(await storage.getItem(storageKeys.sendCount)).toBeNull()
  })

  test('error: no client id, no environment, no wallet are reported, nothing is checked', async () => {
    const errors: string[] = []
    const onError = (error: Error) => errors.push(error.message)
    const storage = Storage.memory()
    const sendTransaction = async () => '0x'
    const environment = 'sandbox'
    const base = { apiBase: b().api.url, chainId: 31337, storage, onError }
    await create({ ...base, clientId: '', environment }).run({
      wallet,
      sendTransaction,
    })
    // Neither sandbox nor production, as published.
    for (const other of ['dev', 'SANDBOX', ''])
      await create({ ...base, clientId: 'c', environment: other }).run({
        wallet,
        sendTransaction,
      })
    await create({ ...base, clientId: 'c', environment }).run({
      wallet: '',
      sendTransaction,
    })
    expect(errors).toEqual([
      'No Passport Client ID provided',
      'Environment not supported',
      'Environment not supported',
      'Environment not supported',
      'No wallet address',
    ])
    expect(checks()).toEqual([])
  })
})

describe('SessionActivity: where the check goes', () => {
  test('behavior: the published chains use the hosted API; others the API base, its path dropped', async () => {
    // The hosted API is out of reach: only where the wallet asks is seen.
    const urls: string[] = []
    const fetch = async (input: RequestInfo | URL) => {
      urls.push(String(input))
      throw new TypeError('fetch failed')
    }
    const storage = Storage.memory()
    const sendTransaction = async () => '0x'
    for (const [chainId, apiBase] of [
      [13371, undefined],
      [13473, 'http://127.0.0.1:1'],
    ] as const)
      await create({
        clientId: `client-${chainId}`,
        environment: chainId === 13371 ? 'production' : 'sandbox',
        chainId,
        apiBase,
        storage,
        fetch,
      }).run({ wallet, sendTransaction })
    expect(urls.map((url) => url.split('?')[0])).toEqual([
      'https://api.immutable.com/v1/sdk/session-activity/check',
      'https://api.sandbox.immutable.com/v1/sdk/session-activity/check',
    ])
    await create({
      clientId: 'client-31337',
      environment: 'sandbox',
      chainId: 31337,
      apiBase: `${b().api.url}/some/prefix`,
      storage,
    }).run({ wallet, sendTransaction })
    expect(checks().map((check) => check.path)).toEqual([
      '/v1/sdk/session-activity/check',
    ])
  })
})

describe('selectorOf', () => {
  test('default: the selector of a function without arguments, with or without parentheses', () => {
    expect(selectorOf('ping')).toBe('0x5c36b186')
    expect(selectorOf('ping()')).toBe('0x5c36b186')
    expect(selectorOf('trackSession')).toBe('0x2f1a3401')
  })
})

describe('localDate', () => {
  test('default: the local calendar date, zero-padded', () => {
    expect(localDate(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05')
  })
})
