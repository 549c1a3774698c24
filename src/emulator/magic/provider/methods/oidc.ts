/**
 * `magic_auth_login_with_oidc` ({ jwt, providerId }) with a provider of the
 * caller's app: the JWT is verified
 * with jose against the provider's JWKS (issuer, audience if configured,
 * expiry); the user is keyed by issuer + subject. A JWKS that cannot be
 * fetched gives one sentence whatever the cause (see ../oidc.ts).
 */
import * as jose from 'jose'
import { rpcCodes } from '../../../../magic/wire/codes.js'
import type { Handler } from '../context.js'
import { failures, RpcFailure } from '../errors.js'
import { JwksUnavailableError, keysOf } from '../oidc.js'
import { login } from '../session.js'

/** Logs in with an OIDC id token of a registered provider. */
export const loginWithOidc: Handler = async (ctx) => {
  const { jwt, providerId } = ctx.options
  if (typeof jwt !== 'string' || typeof providerId !== 'string')
    throw failures.invalidParams(
      `${ctx.method}: expected params [{ jwt, providerId }].`,
    )
  const provider = ctx.deps.oidcProviders.get(providerId)
  // Another app's provider reads as unknown: its users are not this app's.
  if (!provider || (provider.apiKeys && !provider.apiKeys.includes(ctx.apiKey)))
    throw failures.invalidParams(`Unknown OIDC provider ${providerId}.`)
  let payload: jose.JWTPayload
  try {
    ;({ payload } = await jose.jwtVerify(jwt, keysOf(ctx.deps, provider), {
      issuer: provider.issuer,
      ...(provider.audience === undefined
        ? {}
        : { audience: provider.audience }),
      currentDate: ctx.deps.wallNow(),
    }))
  } catch (error) {
    if (error instanceof JwksUnavailableError)
      throw new RpcFailure(rpcCodes.AccessDeniedToUser, error.message)
    throw new RpcFailure(
      rpcCodes.AccessDeniedToUser,
      `The OIDC token was refused: ${error instanceof Error ? error.message : 'it does not verify.'}`,
    )
  }
  if (typeof payload.sub !== 'string' || payload.sub === '')
    throw new RpcFailure(
      rpcCodes.AccessDeniedToUser,
      'The OIDC token was refused: it has no sub.',
    )
  const user = await ctx.deps.registry.findOrCreate({
    oidc: { issuer: provider.issuer, subject: payload.sub },
  })
  // The token's email is kept for the profile, unless another user holds
  // it: the game wallet's players are users keyed by email, and their
  // custody key (this user) must not take their email over.
  if (
    user.email === undefined &&
    typeof payload.email === 'string' &&
    ctx.deps.registry.find({ email: payload.email }) === undefined
  )
    ctx.deps.registry.setEmail(user.id, payload.email)
  return login(ctx, user, ctx.options.lifespan)
}
