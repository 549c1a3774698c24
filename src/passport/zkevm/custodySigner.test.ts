import { type Hex, recoverMessageAddress } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import type * as Rpc from '../../core/Rpc.js'
import * as RpcErrors from '../../core/RpcErrors.js'
import * as Storage from '../../core/Storage.js'
import { createFakeTransport } from '../../magic/_test/fakeTransport.js'
import { createMagicSigner, logoutCustody } from './custodySigner.js'

/**
 * The custody signer over this package's iframe-wallet client, with the
 * client's transport seam answered by a real key: logins with the id token,
 * `eth_accounts` and `personal_sign` as the iframe answers them.
 */
function custodyIframe(
  options: { failures?: { code: number; message: string }[] } = {},
) {
  const account = privateKeyToAccount(generatePrivateKey())
  const failures = [...(options.failures ?? [])]
  const fake = createFakeTransport(async (request: Rpc.Request) => {
    const reply = (result: unknown) => ({
      jsonrpc: '2.0' as const,
      id: request.id,
      result,
    })
    const params = (request.params ?? []) as unknown[]
    if (request.method === 'magic_auth_login_with_oidc')
      return reply('did-token')
    if (request.method === 'eth_accounts') return reply([account.address])
    if (request.method === 'personal_sign') {
      const failure = failures.shift()
      if (failure)
        return { jsonrpc: '2.0' as const, id: request.id, error: failure }
      const data = params[0] as string
      const message = data.startsWith('0x') ? { raw: data as Hex } : data
      return reply(await account.signMessage({ message }))
    }
    return {
      jsonrpc: '2.0' as const,
      id: request.id,
      error: { code: -32601, message: 'no' },
    }
  })
  return { account, fake }
}

function signer(
  fake: ReturnType<typeof createFakeTransport>,
  idTokens: (string | undefined)[],
) {
  const tokens = [...idTokens]
  return createMagicSigner({
    publishableKey: 'pk_test',
    providerId: 'provider-1',
    rpcUrl: 'http://127.0.0.1:1',
    getChainId: async () => 13473,
    getIdToken: async () => tokens.shift(),
    magicOptions: {
      transport: fake.transport,
      storage: Storage.memory(),
      deferPreload: true,
    },
  })
}

describe('createMagicSigner', () => {
  test('default: logs in with the id token and signs raw bytes with the custody key', async () => {
    const { account, fake } = custodyIframe()
    const custody = signer(fake, ['id-1'])
    expect(await custody.getAddress()).toBe(account.address)
    const raw = `0x${'ab'.repeat(32)}` as Hex
    const signature = await custody.signMessage({ raw })
    expect(await recoverMessageAddress({ message: { raw }, signature })).toBe(
      account.address,
    )
    expect(fake.sent().map((r) => r.method)).toEqual([
      'magic_auth_login_with_oidc',
      'eth_accounts',
      'personal_sign',
    ])
    expect(fake.sent()[0]!.params).toEqual([
      { jwt: 'id-1', providerId: 'provider-1', lifespan: undefined },
    ])
  })

  test('behavior: an expired custody session logs in again with a fresh id token, once, silently', async () => {
    const { account, fake } = custodyIframe({
      failures: [{ code: -10016, message: 'Session terminated' }],
    })
    const custody = signer(fake, ['id-1', 'id-2'])
    const signature = await custody.signMessage('hello')
    expect(await recoverMessageAddress({ message: 'hello', signature })).toBe(
      account.address,
    )
    const logins = fake
      .sent()
      .filter((r) => r.method === 'magic_auth_login_with_oidc')
      .map((r) => (r.params as { jwt: string }[])[0]!.jwt)
    expect(logins).toEqual(['id-1', 'id-2'])
  })

  test('error: a second failure surfaces, prefixed ProviderProxy', async () => {
    const { fake } = custodyIframe({
      failures: [
        { code: -10016, message: 'Session terminated' },
        { code: -10016, message: 'Session terminated' },
      ],
    })
    const custody = signer(fake, ['id-1', 'id-2'])
    const error = await custody.signMessage('hello').catch((e) => e)
    expect(error).toBeInstanceOf(RpcErrors.RpcError)
    expect(error.toObject()).toEqual({
      code: -10016,
      message: 'ProviderProxy: Magic RPC Error: [-10016] Session terminated',
    })
  })

  test('error: a refusal is not retried', async () => {
    const { fake } = custodyIframe({
      failures: [{ code: -10012, message: 'User rejected' }],
    })
    const custody = signer(fake, ['id-1', 'id-2'])
    const error = await custody.signMessage('hello').catch((e) => e)
    expect(error).toBeInstanceOf(RpcErrors.RpcError)
    expect(error.toObject()).toEqual({
      code: -10012,
      message: 'ProviderProxy: Magic RPC Error: [-10012] User rejected',
    })
    expect(
      fake.sent().filter((r) => r.method === 'personal_sign'),
    ).toHaveLength(1)
  })

  test('error: no id token', async () => {
    const { fake } = custodyIframe()
    const custody = signer(fake, [undefined, undefined])
    const error = await custody.getAddress().catch((e) => e)
    expect(error).toBeInstanceOf(RpcErrors.InternalError)
    expect(error.message).toBe('failed to obtain ID token')
  })

  test('error: a destroyed signer (after logout) fails to initialise', async () => {
    const { fake } = custodyIframe()
    const custody = signer(fake, ['id-1'])
    custody.destroy()
    const error = await custody.getAddress().catch((e) => e)
    expect(error).toBeInstanceOf(RpcErrors.InternalError)
    expect(error.message).toBe('Signer failed to initialise')
  })
})

describe('logoutCustody', () => {
  /** A custody store holding a session, and the DPoP key pair. */
  async function storedSession() {
    const storage = Storage.memory()
    await storage.setItem('rt', 'refresh-token')
    await storage.setItem('ds_pk_test_eth_mainnet', 'sealed-share')
    await storage.setItem('STORE_KEY_PUBLIC_JWK', { kty: 'EC' })
    return storage
  }

  function logout(
    fake: ReturnType<typeof createFakeTransport>,
    storage: Storage.Storage,
    timeoutMs?: number,
  ) {
    return logoutCustody({
      publishableKey: 'pk_test',
      rpcUrl: 'http://127.0.0.1:1',
      chainId: 13473,
      magicOptions: { transport: fake.transport, storage },
      timeoutMs,
    })
  }

  test('default: the provider is asked to end the session, then the refresh token and device shares leave the store', async () => {
    const fake = createFakeTransport((request) => ({
      jsonrpc: '2.0',
      id: request.id,
      result: true,
    }))
    const storage = await storedSession()
    await logout(fake, storage)
    expect(fake.sent()).toEqual([{ method: 'magic_auth_logout', params: [] }])
    expect(fake.destroyed()).toBe(1)
    // The device key stays, as after any logout of the client.
    expect(await storage.keys()).toEqual(['STORE_KEY_PUBLIC_JWK'])
  })

  test("behavior: the signer notes the session's key and provider at login; the logout removes the note with the session", async () => {
    const { fake } = custodyIframe()
    const storage = Storage.memory()
    const custody = createMagicSigner({
      publishableKey: 'pk_custody',
      providerId: 'provider-1',
      endpoint: 'http://127.0.0.1:4401/ignored/path',
      rpcUrl: 'http://127.0.0.1:1',
      getChainId: async () => 13473,
      getIdToken: async () => 'id-1',
      magicOptions: { transport: fake.transport, storage, deferPreload: true },
    })
    await custody.getAddress()
    expect(await storage.getItem('passport_custody_session')).toEqual({
      publishableKey: 'pk_custody',
      endpoint: 'http://127.0.0.1:4401',
    })
    await storage.setItem('rt', 'refresh-token')
    custody.destroy()
    const logoutFake = createFakeTransport((request) => ({
      jsonrpc: '2.0',
      id: request.id,
      result: true,
    }))
    await logout(logoutFake, storage)
    expect(logoutFake.sent().map((r) => r.method)).toEqual([
      'magic_auth_logout',
    ])
    expect(await storage.getItem('passport_custody_session')).toBe(null)
  })

  test('behavior: with no custody session stored, nothing is sent', async () => {
    const fake = createFakeTransport()
    const storage = Storage.memory()
    await storage.setItem('STORE_KEY_PUBLIC_JWK', { kty: 'EC' })
    await logout(fake, storage)
    expect(fake.sent()).toEqual([])
  })

  test('error: a provider that never answers, or answers an error: the session is still forgotten here, and the logout resolves', async () => {
    const silent = createFakeTransport()
    const first = await storedSession()
    await logout(silent, first, 10)
    expect(silent.sent().map((r) => r.method)).toEqual(['magic_auth_logout'])
    expect(await first.keys()).toEqual(['STORE_KEY_PUBLIC_JWK'])

    const failing = createFakeTransport((request) => ({
      jsonrpc: '2.0',
      id: request.id,
      error: { code: -32603, message: 'Internal error' },
    }))
    const second = await storedSession()
    await expect(logout(failing, second)).resolves.toBeUndefined()
    expect(await second.keys()).toEqual(['STORE_KEY_PUBLIC_JWK'])
  })
})
