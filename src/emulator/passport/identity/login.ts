/**
 * The sign-in page (oidc-provider's interaction): the person types an email,
 * gets a 6-digit code in the dev mailbox and types it back; the email's user
 * in the emulator's registry (created on first sign-in) is signed in.
 * Consent is implicit (see provider.ts).
 *
 * - `GET /interaction/:uid`: the email form.
 * - `POST /interaction/:uid/email` `email`: sends a code, shows the code form.
 * - `POST /interaction/:uid/code` `email`, `code`: signs in (303 back to the
 *   provider) or shows why not.
 * - `POST /interaction/:uid/cancel`: ends the sign-in with `access_denied`.
 */
import type { HttpBindings } from '@hono/node-server'
import { type Context, Hono } from 'hono'
import type Provider from 'oidc-provider'
import { type Codes, maxAttempts } from '../../codes.js'
import { isEmailAddress, normalizeContact } from '../../contact.js'
import type * as Mailbox from '../../dev/mailbox.js'
import type { Registry } from '../../registry/index.js'
import { errorParagraph, escapeHtml, hidden, page } from './html.js'

/** The mailbox `kind` of the sign-in codes. */
export const loginCodeKind = 'passport-email-otp'

type Env = { Bindings: HttpBindings }

/** Adds the sign-in routes to `app`. */
export function loginRoutes(options: {
  provider: Provider
  registry: Registry
  mailbox: Mailbox.Store
  codes: Codes
  /** The dev mailbox page, linked from the code form. */
  mailboxPage?: string | undefined
}): Hono<Env> {
  const { provider, registry, mailbox, codes, mailboxPage } = options
  const app = new Hono<Env>()

  /** The interaction of the request, or `undefined` when it is gone. */
  const details = async (c: Context<Env>) => {
    try {
      const interaction = await provider.interactionDetails(
        c.env.incoming,
        c.env.outgoing,
      )
      return interaction.uid === c.req.param('uid') ? interaction : undefined
    } catch {
      return undefined
    }
  }
  const expired = (c: Context<Env>) =>
    c.html(
      page(
        'Sign-in expired',
        `${errorParagraph('This sign-in page has expired or was already used.')}
<p class="muted">Go back to the app and sign in again.</p>`,
      ),
      400,
    )
  const emailForm = (uid: string, email = '', error?: string) =>
    page(
      'Sign in',
      `${errorParagraph(error)}
<form method="post" action="/interaction/${escapeHtml(uid)}/email">
<label for="email">Email</label>
<input type="email" id="email" name="email" value="${escapeHtml(email)}" autocomplete="email" autofocus required data-testid="login-email">
<button type="submit" data-testid="login-send-code">Email me a code</button>
</form>
${cancelForm(uid)}`,
    )
  const codeForm = (uid: string, email: string, error?: string) =>
    page(
      'Enter your code',
      `${errorParagraph(error)}
<p>We sent a 6-digit code to <strong data-testid="login-code-sent-to">${escapeHtml(email)}</strong>.${
        mailboxPage === undefined
          ? ''
          : ` <a href="${escapeHtml(mailboxPage)}" target="_blank" rel="noopener" data-testid="login-mailbox-link">Open the dev mailbox</a>.`
      }</p>
<form method="post" action="/interaction/${escapeHtml(uid)}/code">
${hidden('email', email)}
<label for="code">Code</label>
<input type="text" id="code" name="code" class="code" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" autocomplete="one-time-code" autofocus required data-testid="login-code">
<button type="submit" data-testid="login-verify">Sign in</button>
</form>
<form method="post" action="/interaction/${escapeHtml(uid)}/email">
${hidden('email', email)}
<button type="submit" class="secondary" data-testid="login-resend">Send a new code</button>
</form>
${cancelForm(uid)}`,
    )
  const readForm = async (c: Context<Env>) => {
    const body = (await c.req.parseBody().catch(() => ({}))) as Record<
      string,
      unknown
    >
    const text = (name: string) =>
      typeof body[name] === 'string' ? (body[name] as string) : ''
    return { email: normalizeContact(text('email')), code: text('code').trim() }
  }

  app.get('/interaction/:uid', async (c) => {
    const interaction = await details(c)
    if (!interaction) return expired(c)
    const hint = interaction.params.login_hint
    return c.html(
      emailForm(interaction.uid, typeof hint === 'string' ? hint : ''),
    )
  })

  app.post('/interaction/:uid/email', async (c) => {
    const interaction = await details(c)
    if (!interaction) return expired(c)
    const { email } = await readForm(c)
    if (!isEmailAddress(email))
      return c.html(
        emailForm(interaction.uid, email, 'Enter a valid email address.'),
        400,
      )
    const code = codes.issue(`email:${email}`)
    if (code === undefined)
      return c.html(
        emailForm(
          interaction.uid,
          email,
          'Too many codes were sent to this address. Wait a few minutes and try again.',
        ),
        429,
      )
    mailbox.deliver({ to: email, kind: loginCodeKind, code })
    return c.html(codeForm(interaction.uid, email))
  })

  app.post('/interaction/:uid/code', async (c) => {
    const interaction = await details(c)
    if (!interaction) return expired(c)
    const { email, code } = await readForm(c)
    const check = codes.check(`email:${email}`, code)
    if (check === 'invalid')
      return c.html(
        codeForm(interaction.uid, email, 'That code is not right. Try again.'),
        400,
      )
    if (check === 'max-attempts')
      return c.html(
        emailForm(
          interaction.uid,
          email,
          `${maxAttempts} wrong codes: that code no longer works. Ask for a new one.`,
        ),
        400,
      )
    if (check === 'expired')
      return c.html(
        emailForm(
          interaction.uid,
          email,
          'That code has expired. Ask for a new one.',
        ),
        400,
      )
    const user = await registry.findOrCreate({ email })
    const returnTo = await provider.interactionResult(
      c.env.incoming,
      c.env.outgoing,
      { login: { accountId: user.id } },
      { mergeWithLastSubmission: false },
    )
    return c.redirect(returnTo, 303)
  })

  app.post('/interaction/:uid/cancel', async (c) => {
    const interaction = await details(c)
    if (!interaction) return expired(c)
    const returnTo = await provider.interactionResult(
      c.env.incoming,
      c.env.outgoing,
      {
        error: 'access_denied',
        error_description: 'End-User aborted the sign-in',
      },
      { mergeWithLastSubmission: false },
    )
    return c.redirect(returnTo, 303)
  })

  return app
}

function cancelForm(uid: string): string {
  return `<form method="post" action="/interaction/${escapeHtml(uid)}/cancel">
<button type="submit" class="secondary" data-testid="login-cancel">Cancel</button>
</form>`
}
