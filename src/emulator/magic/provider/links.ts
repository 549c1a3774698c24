/**
 * The links the service delivers to the mailbox (magic link, device
 * approval) and its dev routes.
 */
import type { Hono } from 'hono'
import { cors } from 'hono/cors'
import type { Deps } from './context.js'
import type { Runner } from './runner.js'
import { randomToken } from './session.js'

/** How long a mailbox link lives: 15 minutes. */
export const linkLifetime = 15 * 60 * 1000
/** How long a magic-link credential lives: 10 minutes. */
export const credentialLifetime = 10 * 60 * 1000

/** Internal answers the link routes give a waiting flow. */
export const linkAnswers = {
  opened: '@link-opened',
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
  deps.links.set(token, {
    kind: options.kind,
    flowId: options.flowId,
    email: options.email,
    redirectURI: options.redirectURI,
    expiresAt: deps.now().getTime() + linkLifetime,
    used: false,
  })
  return `${options.origin}/v1/${options.kind}/${token}`
}

/**
 * Mounts:
 * - `GET /v1/magic-link/:token` → completes the waiting login; with a
 *   `redirectURI`, redirects there with `?magic_credential=…`.
 * - `GET /v1/device-approval/:token` → approves the waiting device.
 * - `POST /dev/users/device-approval` `{ email, required }`.
 * - `POST /dev/oidc-providers` `{ providerId, issuer, jwksUri, audience? }`.
 *
 * The dev routes answer any origin (CORS).
 */
export function linkRoutes(
  app: Hono,
  options: { deps: Deps; runner: Runner },
): void {
  const { deps, runner } = options

  for (const kind of ['magic-link', 'device-approval'] as const)
    app.get(`/v1/${kind}/:token`, (c) => {
      const link = deps.links.get(c.req.param('token'))
      if (!link || link.kind !== kind || link.used)
        return c.html(page('This link is not valid or was already used.'), 410)
      link.used = true
      if (link.expiresAt <= deps.now().getTime()) {
        runner.answer(link.flowId, { eventType: linkAnswers.expired, args: {} })
        return c.html(page('This link has expired.'), 410)
      }
      const credential =
        link.redirectURI === undefined ? undefined : randomToken(24)
      if (credential)
        deps.credentials.set(credential, {
          email: link.email,
          expiresAt: deps.now().getTime() + credentialLifetime,
          used: false,
        })
      runner.answer(link.flowId, { eventType: linkAnswers.opened, args: {} })
      if (link.redirectURI !== undefined && credential) {
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

  // The playground (another origin) may call the dev routes.
  app.use('/dev/*', cors({ origin: '*', allowMethods: ['POST'] }))

  app.post('/dev/users/device-approval', async (c) => {
    const body = (await c.req.json().catch(() => ({}))) as {
      email?: unknown
      required?: unknown
    }
    if (typeof body.email !== 'string' || typeof body.required !== 'boolean')
      return c.json(
        { error: 'Expected { email: string, required: boolean }.' },
        400,
      )
    const user = await deps.registry.findOrCreate({ email: body.email })
    user.deviceApprovalRequired = body.required
    return c.json({ email: user.email, required: user.deviceApprovalRequired })
  })

  app.post('/dev/oidc-providers', async (c) => {
    const body = (await c.req.json().catch(() => ({}))) as Record<
      string,
      unknown
    >
    const { providerId, issuer, jwksUri, audience } = body
    if (
      typeof providerId !== 'string' ||
      typeof issuer !== 'string' ||
      typeof jwksUri !== 'string' ||
      (audience !== undefined && typeof audience !== 'string')
    )
      return c.json(
        {
          error:
            'Expected { providerId, issuer, jwksUri, audience? } (strings).',
        },
        400,
      )
    deps.oidcProviders.set(providerId, { issuer, jwksUri, audience })
    return c.json({ providerId, issuer, jwksUri, audience })
  })
}

function page(text: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Emulated wallet</title></head><body><main data-testid="link-result"><p>${text}</p></main></body></html>`
}
