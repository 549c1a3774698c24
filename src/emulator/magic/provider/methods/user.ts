/**
 * User methods: logged-in check, logout (and `mc_disconnect`), info, id
 * tokens, authorization token.
 */
import { methods } from '../../../../magic/wire/methods.js'
import type { User } from '../../../registry/index.js'
import {
  cap,
  maxAuthorizationTokenLength,
  maxAuthorizationTokens,
} from '../bounds.js'
import type { Handler } from '../context.js'
import { failures } from '../errors.js'
import { didToken, requireUser } from '../session.js'

/** The `magic_get_info` result of `user`. */
export function infoOf(user: User) {
  return {
    issuer: `did:ethr:${user.address}`,
    publicAddress: user.address,
    email: user.email ?? null,
    phoneNumber: user.phoneNumber ?? null,
    isMfaEnabled: user.mfaSecret !== undefined,
    recoveryFactors:
      user.recoveryPhone === undefined
        ? []
        : [{ type: 'phone_number', value: user.recoveryPhone }],
    walletType: 'magic',
    firstLoginAt: user.createdAt,
    wallets: { ethereum: { publicAddress: user.address } },
  }
}

const isLoggedIn: Handler = async (ctx) => ctx.user !== undefined

const logout: Handler = async (ctx) => {
  if (ctx.session) {
    ctx.deps.sessions.revoke(ctx.session.rt)
    ctx.deps.authorizationTokens.delete(ctx.session.rt)
  }
  ctx.session = undefined
  ctx.user = undefined
  return true
}

/**
 * `mc_disconnect`: disconnects this session's wallet connection. The
 * published SDK only lists it in its method enum; here it ends the session
 * server-side exactly as `magic_auth_logout` does, and answers `true`.
 */
const disconnect: Handler = logout

const getInfo: Handler = async (ctx) => infoOf(requireUser(ctx))

/** The legacy metadata shape (`magic_auth_get_metadata`). */
const getMetadata: Handler = async (ctx) => {
  const user = requireUser(ctx)
  return {
    issuer: `did:ethr:${user.address}`,
    publicAddress: user.address,
    email: user.email ?? null,
    phoneNumber: user.phoneNumber ?? null,
    isMfaEnabled: user.mfaSecret !== undefined,
    recoveryFactors: infoOf(user).recoveryFactors,
  }
}

const getIdToken: Handler = async (ctx) =>
  didToken(ctx, requireUser(ctx), { lifespan: ctx.options.lifespan })

const generateIdToken: Handler = async (ctx) =>
  didToken(ctx, requireUser(ctx), {
    lifespan: ctx.options.lifespan,
    attachment: ctx.options.attachment,
  })

/**
 * Stores the app's authorization token on the session (else the device key,
 * else the API key); answers `true`. At most 16 KiB.
 */
const setAuthorizationToken: Handler = async (ctx) => {
  const { jwt } = ctx.options
  if (typeof jwt !== 'string' || jwt === '')
    throw failures.invalidParams('Expected params [{ jwt: string }].')
  if (jwt.length > maxAuthorizationTokenLength)
    throw failures.invalidParams(
      `The authorization token is longer than ${maxAuthorizationTokenLength} characters.`,
    )
  const key = ctx.session?.rt ?? ctx.jkt ?? ctx.apiKey
  const tokens = ctx.deps.authorizationTokens
  // Set again, the key moves to the newest end of the map.
  tokens.delete(key)
  tokens.set(key, jwt)
  cap(tokens, maxAuthorizationTokens)
  return true
}

/** User methods by name. */
export const userHandlers: Record<string, Handler> = {
  [methods.isLoggedIn]: isLoggedIn,
  [methods.logout]: logout,
  [methods.disconnect]: disconnect,
  [methods.getInfo]: getInfo,
  [methods.getMetadata]: getMetadata,
  [methods.getIdToken]: getIdToken,
  [methods.generateIdToken]: generateIdToken,
  [methods.setAuthorizationToken]: setAuthorizationToken,
}
