import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startIdentity } from './testkit.js'

let identity: Awaited<ReturnType<typeof startIdentity>>

beforeAll(async () => {
  identity = await startIdentity()
})
afterAll(() => identity.stop())

describe('GET /.well-known/openid-configuration', () => {
  test('default: the routes the published SDK calls, PKCE S256, the grants and the device endpoint', async () => {
    const response = await fetch(
      `${identity.issuer}/.well-known/openid-configuration`,
    )
    const { issuer } = identity
    expect(await response.json()).toMatchObject({
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/oauth/token`,
      device_authorization_endpoint: `${issuer}/oauth/device/code`,
      userinfo_endpoint: `${issuer}/userinfo`,
      revocation_endpoint: `${issuer}/oauth/revoke`,
      jwks_uri: `${issuer}/.well-known/jwks.json`,
      end_session_endpoint: `${issuer}/session/end`,
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: [
        'authorization_code',
        'refresh_token',
        'urn:ietf:params:oauth:grant-type:device_code',
      ],
      response_types_supported: ['code'],
      id_token_signing_alg_values_supported: ['RS256'],
    })
  })
})

describe('GET /.well-known/jwks.json', () => {
  test('default: one public RS256 key, readable from any origin', async () => {
    const response = await fetch(`${identity.issuer}/.well-known/jwks.json`, {
      headers: { origin: 'http://127.0.0.1:5173' },
    })
    expect(response.headers.get('access-control-allow-origin')).toBe(
      'http://127.0.0.1:5173',
    )
    const { keys } = (await response.json()) as {
      keys: Record<string, unknown>[]
    }
    expect(keys).toHaveLength(1)
    expect(Object.keys(keys[0] ?? {}).sort()).toEqual([
      'alg',
      'e',
      'kid',
      'kty',
      'n',
      'use',
    ])
    expect(keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' })
  })
})

describe('CORS', () => {
  test('behavior: a loopback page may call the token, revocation and userinfo endpoints', async () => {
    for (const path of [
      '/oauth/token',
      '/oauth/revoke',
      '/oauth/device/code',
    ]) {
      const response = await fetch(`${identity.issuer}${path}`, {
        method: 'POST',
        headers: { origin: 'http://localhost:63315' },
        body: new URLSearchParams({ client_id: identity.clientId }),
      })
      expect(response.headers.get('access-control-allow-origin')).toBe(
        'http://localhost:63315',
      )
    }
    const preflight = await fetch(`${identity.issuer}/userinfo`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://127.0.0.1:5173',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    })
    expect(preflight.headers.get('access-control-allow-origin')).toBe(
      'http://127.0.0.1:5173',
    )
  })

  test('error: another origin gets no CORS grant', async () => {
    const response = await fetch(`${identity.issuer}/oauth/token`, {
      method: 'POST',
      headers: { origin: 'https://evil.example' },
      body: new URLSearchParams({ client_id: identity.clientId }),
    })
    expect(response.headers.get('access-control-allow-origin')).toBe(null)
  })
})
