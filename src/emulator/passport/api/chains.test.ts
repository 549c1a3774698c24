import { decodeJwt } from 'jose'
import { type Hex, recoverMessageAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { registrationMessage } from '../../../passport/wire/api.js'
import { tokenRequest } from '../identity/testkit.js'
import { chainNameOf } from './chains.js'
import {
  mainChainName,
  startApi,
  type TestApi,
  testWalletAddress,
} from './testkit.js'

let api: TestApi

beforeAll(async () => {
  api = await startApi()
})
afterAll(() => api?.stop())

const registerPath = (name = mainChainName) =>
  `/v2/chains/${name}/passport/counterfactual-address`

describe('GET /v1/chains', () => {
  test('default: every chain with its CAIP-2 id, API name and RPC URL, the main one first, on one page (no allowlist or minter where the emulator deployed and mints nothing)', async () => {
    const response = await api.get('/v1/chains')
    expect(response.status).toBe(200)
    expect(response.body).toEqual({
      result: [
        {
          id: 'eip155:31337',
          name: 'imtbl-zkevm-local-31337',
          rpc_url: 'http://127.0.0.1:8545',
          operator_allowlist_address: null,
          minter_address: null,
        },
        {
          id: 'eip155:1337',
          name: 'imtbl-zkevm-local-1337',
          rpc_url: 'http://127.0.0.1:8546',
          operator_allowlist_address: null,
          minter_address: null,
        },
      ],
      page: { previous_cursor: null, next_cursor: null },
    })
    expect(chainNameOf(13473)).toBe('imtbl-zkevm-local-13473')
  })

  test('behavior: any page may call the API with the headers the SDK sends, the API key among them', async () => {
    const preflight = await fetch(`${api.url}/v1/chains`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://game.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers':
          'authorization,content-type,x-sdk-version,x-immutable-api-key',
      },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
    expect(
      preflight.headers.get('access-control-allow-headers')?.toLowerCase(),
    ).toBe('authorization,content-type,x-sdk-version,x-immutable-api-key')
    const response = await fetch(`${api.url}/v1/chains`, {
      headers: { origin: 'https://game.example' },
    })
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
  })

  test('error: an unknown route is 404 RESOURCE_NOT_FOUND', async () => {
    const response = await api.get('/v1/nothing')
    expect(response.status).toBe(404)
    expect(response.body).toEqual({
      code: 'RESOURCE_NOT_FOUND',
      message: 'No route GET /v1/nothing.',
      details: null,
    })
  })
})

describe('POST /v2/chains/{chain_name}/passport/counterfactual-address', () => {
  test("default: the custody key's signature registers the player's 2-of-2 wallet, which the next id token carries", async () => {
    const player = await api.player()
    const custody = await api.custody(player)
    const signature = await api.registrationSignature(custody)
    expect(signature.slice(130)).toMatch(/^0[01]$/)
    const response = await api.post(
      registerPath(),
      { ethereum_address: custody.address, ethereum_signature: signature },
      player.accessToken,
    )
    const wallet = testWalletAddress(custody.address, {
      chainId: 31337,
      rpcUrl: '',
    })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ counterfactual_address: wallet })
    expect(api.registry.get(player.sub)?.passport).toEqual({
      zkevmEthAddress: wallet,
      zkevmUserAdminAddress: custody.address,
    })
    const refreshed = await tokenRequest(api.identity.issuer, {
      grant_type: 'refresh_token',
      client_id: api.identity.clientId,
      refresh_token: player.refreshToken,
    })
    expect(decodeJwt(String(refreshed.body.id_token)).passport).toEqual({
      zkevm_eth_address: wallet,
      zkevm_user_admin_address: custody.address,
    })
  })

  test('behavior: registering again (on any chain, v 27/28, lowercase address) answers the same wallet', async () => {
    const player = await api.player()
    const custody = await api.custody(player)
    const first = await api.register(player)
    const again = await api.post(
      registerPath(chainNameOf(1337)),
      {
        ethereum_address: custody.address.toLowerCase(),
        ethereum_signature: await api.registrationSignature(custody, true),
      },
      player.accessToken,
    )
    expect(again.status).toBe(200)
    expect(again.body).toEqual({ counterfactual_address: first })
  })

  test('error: without a valid access token it is 401 UNAUTHORISED_REQUEST', async () => {
    const player = await api.player()
    const custody = await api.custody(player)
    const body = {
      ethereum_address: custody.address,
      ethereum_signature: await api.registrationSignature(custody),
    }
    for (const token of [undefined, player.idToken, 'a.b.c']) {
      const response = await api.post(registerPath(), body, token)
      expect(response.status).toBe(401)
      expect(response.body).toEqual({
        code: 'UNAUTHORISED_REQUEST',
        message:
          token === undefined
            ? 'A bearer token is required.'
            : 'The token is invalid or expired.',
        details: null,
      })
      expect(response.headers.get('www-authenticate')).toMatch(
        /^Bearer error="invalid_token"/,
      )
    }
    expect(api.registry.get(player.sub)?.passport).toEqual({})
  })

  test('error: an unknown chain name is 404 RESOURCE_NOT_FOUND', async () => {
    const player = await api.player()
    const custody = await api.custody(player)
    const response = await api.post(
      registerPath('imtbl-zkevm-testnet'),
      {
        ethereum_address: custody.address,
        ethereum_signature: await api.registrationSignature(custody),
      },
      player.accessToken,
    )
    expect(response.status).toBe(404)
    expect(response.body).toEqual({
      code: 'RESOURCE_NOT_FOUND',
      message: 'There is no chain named imtbl-zkevm-testnet.',
      details: null,
    })
  })

  test('error: a malformed body is 400 VALIDATION_ERROR', async () => {
    const player = await api.player()
    const custody = await api.custody(player)
    const signature = await api.registrationSignature(custody)
    const shape = {
      code: 'VALIDATION_ERROR',
      message:
        'Expected { ethereum_address, ethereum_signature } (an address and a 65-byte hex signature).',
      details: null,
    }
    for (const body of [
      'not json',
      [],
      {},
      { ethereum_address: custody.address },
      { ethereum_address: 'nope', ethereum_signature: signature },
      {
        ethereum_address: custody.address,
        ethereum_signature: signature.slice(0, 130),
      },
      { ethereum_address: custody.address, ethereum_signature: 42 },
    ]) {
      const response = await api.post(registerPath(), body, player.accessToken)
      expect(response.status).toBe(400)
      expect(response.body).toEqual(shape)
    }
    const badV = await api.post(
      registerPath(),
      {
        ethereum_address: custody.address,
        ethereum_signature: `${signature.slice(0, 130)}02`,
      },
      player.accessToken,
    )
    expect(badV.status).toBe(400)
    expect(badV.body).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'The signature must end with v 0, 1, 27 or 28.',
      details: null,
    })
  })

  test('error: a signature by another key, or of another text, is 403 AUTHENTICATION_ERROR', async () => {
    const player = await api.player()
    const custody = await api.custody(player)
    const other = await api.registry.findOrCreate({
      email: 'other@example.com',
    })
    const byOther = await api.registrationSignature(other)
    const otherText = await api.registry.signMessage(custody.id, 'hello')
    for (const signature of [byOther, otherText]) {
      const response = await api.post(
        registerPath(),
        { ethereum_address: custody.address, ethereum_signature: signature },
        player.accessToken,
      )
      expect(response.status).toBe(403)
      expect(response.body).toEqual({
        code: 'AUTHENTICATION_ERROR',
        message:
          'ethereum_signature is not a signature of the registration message by ethereum_address.',
        details: null,
      })
    }
    expect(api.registry.get(player.sub)?.passport).toEqual({})
  })

  test("error: another player's custody key, or any key before the player's exists, is 403 AUTHENTICATION_ERROR", async () => {
    const player = await api.player()
    const someone = await api.player()
    const theirs = await api.custody(someone)
    const signature = await api.registrationSignature(theirs)
    expect(
      await recoverMessageAddress({
        message: registrationMessage,
        signature:
          `${signature.slice(0, 130)}${signature.endsWith('00') ? '1b' : '1c'}` as Hex,
      }),
    ).toBe(theirs.address)
    const response = await api.post(
      registerPath(),
      { ethereum_address: theirs.address, ethereum_signature: signature },
      player.accessToken,
    )
    expect(response.status).toBe(403)
    expect(response.body).toEqual({
      code: 'AUTHENTICATION_ERROR',
      message: "ethereum_address is not the player's key-custody wallet.",
      details: null,
    })
    expect(api.registry.get(player.sub)?.passport).toEqual({})
    expect(api.registry.get(someone.sub)?.passport).toEqual({})
  })
})
