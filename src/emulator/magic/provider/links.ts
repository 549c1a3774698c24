/**
 * The links the service delivers to the mailbox (magic link, device
 * approval) and its dev routes.
 */
import type { Hono } from 'hono'
import { isEmailAddress } from '../../contact.js'
import { cap, maxCredentials, maxLinks, sweep } from './bounds.js'
import type { Deps } from './context.js'
import { registerOidcProvider } from './oidc.js'
import type { Runner } from './runner.js'
import { randomToken } from './session.js'

/** How long a mailbox link lives: 15 minutes. */
export const linkLifetime = 15 * 60 * 1000
/** How long a magic-link credential lives: 10 minutes. */
export const credentialLifetime = 10 * 60 * 1000

/** An email address, as the login methods take it. */
/** Internal answers the link routes give a waiting flow. */
export const linkAnswers = {
  opened: '@link-opened',
  /** Opened, and the login goes on at the redirect URI. */
  redirected: '@link-redirected',
  expired: '@link-expired',
} as const

/**
 * Creates a link to this service for a waiting flow and remembers it.
 *
 * @returns The absolute URL to deliver.
 */
export function createLink(
  deps: Deps,
  options: {
    kind: 'magic-link' | 'device-approval'
    flowId: string
    email: string
    origin: string
    redirectURI?: string | undefined
  },
): string {
  const token = randomToken(24)
  const now = deps.now().getTime()
  // An expired link is kept one more lifetime, so that opening it still
  // tells the waiting flow it expired; then it is forgotten.
  sweep(deps.links, (link) => link.expiresAt + linkLifetime <= now)
  deps.links.set(token, {
    kind: options.kind,
    flowId: options.flowId,
    email: options.email,
    redirectURI: options.redirectURI,
    expiresAt: now + linkLifetime,
  })
  cap(deps.links, maxLinks)
  return `${options.origin}/v1/${options.kind}/${token}`
}

/** Forgets a link made by {@link createLink}: opening it is then refused. */
export function revokeLink(deps: Deps, link: string): void {
  deps.links.delete(link.slice(link.lastIndexOf('/') + 1))
}

/**
 * Creates a one-time `magic_credential` for `email` (what a magic link
 * with a redirect URI hands to the dApp) and remembers it.
 *
 * @returns The credential.
 */
export function createCredential(deps: Deps, email: string): string {
  const credential = randomToken(24)
  const now = deps.now().getTime()
  // Expired credentials are kept one more lifetime to answer "expired"
  // rather than "unknown", then forgotten.
  sweep(
    deps.credentials,
    (entry) => entry.expiresAt + credentialLifetime <= now,
  )
  deps.credentials.set(credential, {
    email,
    expiresAt: now + credentialLifetime,
  })
  cap(deps.credentials, maxCredentials)
  return credential
}

/**
 * Mounts:
 * - `GET /v1/magic-link/:token` → completes the waiting login; with a
 *   `redirectURI`, redirects there with `?magic_credential=…` instead, and
 *   the waiting request ends with -10015 (the login goes on there).
 * - `GET /v1/device-approval/:token` → approves the waiting device.
 * - `POST /dev/users/device-approval` `{ email, required }`.
 * - `POST /dev/oidc-providers` `{ providerId, issuer, jwksUri, audience? }`.
 *
 * The dev routes answer loopback pages only (the server's rule for
 * `/dev/`); a body that is not the expected object is 400.
 */
export function linkRoutes(
  app: Hono,
  options: { deps: Deps; runner: Runner },
): void {
  const { deps, runner } = options

  for (const kind of ['magic-link', 'device-approval'] as const)
    app.get(`/v1/${kind}/:token`, (c) => {
      const token = c.req.param('token')
      const link = deps.links.get(token)
      if (!link || link.kind !== kind)
        return c.html(page('This link is not valid or was already used.'), 410)
      // A link works once: forgetting it makes a second visit invalid.
      deps.links.delete(token)
      const now = deps.now().getTime()
      if (link.expiresAt <= now) {
        runner.answer(link.flowId, { eventType: linkAnswers.expired, args: {} })
        return c.html(page('This link has expired.'), 410)
      }
      runner.answer(link.flowId, {
        eventType:
          link.redirectURI === undefined
            ? linkAnswers.opened
            : linkAnswers.redirected,
        args: {},
      })
      if (link.redirectURI !== undefined) {
        const credential = createCredential(deps, link.email)
        const target = new URL(link.redirectURI)
        target.searchParams.set('magic_credential', credential)
        return c.redirect(target.toString(), 302)
      }
      return c.html(
        page(
          kind === 'magic-link'
            ? 'You are logged in. You can close this tab.'
            : 'This device is approved. You can close this tab.',
        ),
      )
    })

  app.post('/dev/users/device-approval', async (c) => {
    const body = await readJson(c.req.raw)
    const { email, required } = (
      typeof body === 'object' && body !== null ? body : {}
    ) as { email?: unknown; required?: unknown }
    if (
      typeof email !== 'string' ||
      !isEmailAddress(email.trim()) ||
      typeof required !== 'boolean'
    )
      return c.json(
        { error: 'Expected { email: string, required: boolean }.' },
        400,
      )
    const user = await deps.registry.findOrCreate({ email })
    user.deviceApprovalRequired = required
    return c.json({ email: user.email, required: user.deviceApprovalRequired })
  })

  app.post('/dev/oidc-providers', async (c) => {
    const registered = registerOidcProvider(deps, await readJson(c.req.raw))
    if (!registered.ok)
      return c.json({ error: registered.error }, registered.status)
    return c.json(registered.provider)
  })
}

/** The body as JSON, or `undefined` when it is not JSON. */
export async function readJson(request: Request): Promise<unknown> {
  try {
    return JSON.parse(await request.text())
  } catch {
    return undefined
  }
}

function page(text: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Emulated wallet</title></head><body><main data-testid="link-result"><p>${text}</p></main></body></html>`
}
