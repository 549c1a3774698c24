import { html, raw } from 'hono/html'
import type { HtmlEscapedString } from 'hono/utils/html'
import type { Message } from './mailbox.js'

/** Seconds between two automatic reloads of the mailbox page. */
export const refreshSeconds = 3

/**
 * Renders the mailbox page people read: the messages newest first, their
 * codes and links (links clickable when they are http(s)), a filter by
 * recipient, and an automatic reload every few seconds. Every interpolated
 * value is HTML-escaped.
 *
 * @param options.messages - The messages to show, newest first.
 * @param options.to - The recipient filter, if any.
 * @param options.nonce - The nonce of its stylesheet, which {@link policy} allows.
 * @returns The HTML document.
 */
export function render(options: render.Options): render.ReturnType {
  const { messages, to, nonce } = options
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${refreshSeconds}">
<title>Dev mailbox</title>
<style nonce="${nonce}">${raw(style)}</style>
</head>
<body>
<main>
<h1>Dev mailbox</h1>
<p class="hint">Messages the emulated services would have sent by email or SMS, newest first. This page reloads every ${refreshSeconds} seconds.</p>
<form method="get" data-testid="mailbox-filter">
<label>Recipient <input name="to" value="${to ?? ''}" placeholder="email or phone number" data-testid="mailbox-filter-to"></label>
<button type="submit">Filter</button>
${to === undefined ? '' : html`<a href="?">Show all</a>`}
</form>
${
  messages.length === 0
    ? html`<p class="empty" data-testid="mailbox-empty">No messages${to === undefined ? '' : html` for <strong>${to}</strong>`} yet.</p>`
    : html`<table>
<thead><tr><th>Received</th><th>To</th><th>Kind</th><th>Code</th><th>Link</th></tr></thead>
<tbody>
${messages.map(row)}
</tbody>
</table>`
}
</main>
</body>
</html>`
}

export declare namespace render {
  type Options = {
    /** The messages to show, newest first. */
    messages: readonly Message[]
    /** The recipient filter, if any. */
    to?: string | undefined
    /** The nonce of its stylesheet. */
    nonce: string
  }
  type ReturnType = HtmlEscapedString | Promise<HtmlEscapedString>
}

/**
 * The page's Content-Security-Policy: its own stylesheet, its filter form
 * sent to itself, and no site may frame it (a framing page could lay its
 * own buttons over the mailbox's links, and a magic link logs its
 * recipient in).
 */
export function policy(nonce: string): string {
  return [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ')
}

function row(message: Message) {
  return html`<tr data-testid="mailbox-message">
<td data-testid="mailbox-message-at"><time datetime="${message.at}">${message.at.replace('T', ' ').replace(/\.\d+Z$/, 'Z')}</time></td>
<td data-testid="mailbox-message-to">${message.to}</td>
<td data-testid="mailbox-message-kind">${message.kind}</td>
<td data-testid="mailbox-message-code" class="code">${message.code ?? ''}</td>
<td data-testid="mailbox-message-link" class="link">${message.link === undefined ? '' : link(message.link)}</td>
</tr>`
}

function link(url: string) {
  if (!/^https?:\/\//i.test(url)) return url
  return html`<a href="${url}" target="_blank" rel="noopener noreferrer">${url}</a>`
}

const style = `
body { margin: 0; font: 15px/1.5 system-ui, sans-serif; color: #1d2433; background: #f5f6f8; }
main { max-width: 960px; margin: 0 auto; padding: 24px; }
h1 { margin: 0 0 4px; font-size: 24px; }
.hint { margin: 0 0 16px; color: #5b6478; }
form { display: flex; gap: 8px; align-items: center; margin-bottom: 16px; }
input { font: inherit; padding: 4px 8px; min-width: 260px; }
button { font: inherit; padding: 4px 12px; }
table { width: 100%; border-collapse: collapse; background: #fff; }
th, td { text-align: left; padding: 8px 10px; border-bottom: 1px solid #e3e6ec; vertical-align: top; }
th { font-size: 13px; color: #5b6478; }
td { white-space: nowrap; }
td.link { white-space: normal; overflow-wrap: anywhere; }
.code { font: 600 18px/1.3 ui-monospace, monospace; letter-spacing: 0.08em; }
.empty { padding: 24px; background: #fff; color: #5b6478; }
`
