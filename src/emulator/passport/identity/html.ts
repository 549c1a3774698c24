/**
 * The emulated identity provider's page frame: plain server-rendered HTML
 * with a little inline CSS and no external assets. Every page is a real page
 * a person can use; every input and button carries a `data-testid`.
 */

/**
 * Escapes text for HTML content and double-quoted attribute values.
 *
 * @example
 * ```ts
 * escapeHtml('<a href="x">') // '&lt;a href=&quot;x&quot;&gt;'
 * ```
 */
export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
}

const styles = `body{font:16px/1.5 system-ui,sans-serif;background:#f4f4f7;color:#1d1d24;margin:0}
main{max-width:360px;margin:48px auto;padding:24px 28px;background:#fff;border-radius:10px;box-shadow:0 1px 4px #0002}
h1{font-size:1.4em;margin:0 0 12px}label{display:block;margin:12px 0 4px;font-weight:600}
input[type=email],input[type=text]{box-sizing:border-box;width:100%;padding:10px;font-size:1em;border:1px solid #b9b9c6;border-radius:6px}
input.code{letter-spacing:.3em;text-align:center;font-size:1.3em}
button{margin-top:14px;width:100%;padding:10px;font-size:1em;border:0;border-radius:6px;background:#2a5bd7;color:#fff;cursor:pointer}
button.secondary{background:none;color:#2a5bd7;border:1px solid #2a5bd7}
.error{color:#b00020;background:#fdecee;padding:8px 10px;border-radius:6px}
.muted{color:#5c5c6e;font-size:.9em}code.user-code{font-size:1.6em;letter-spacing:.15em}`

/**
 * Wraps page content in the common frame.
 *
 * @param title - The page's title and heading (plain text, escaped here).
 * @param body - The content, already HTML.
 */
export function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${styles}</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>`
}

/** An error paragraph, or nothing. */
export function errorParagraph(message: string | undefined): string {
  return message === undefined
    ? ''
    : `<p class="error" role="alert" data-testid="error">${escapeHtml(message)}</p>`
}

/** A hidden form field. */
export function hidden(name: string, value: string): string {
  return `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`
}

/**
 * The page oidc-provider shows for an error it cannot redirect back to the
 * client (an unknown client, a refused redirect URI, an expired page).
 */
export function errorPage(out: Record<string, unknown>): string {
  const error = typeof out.error === 'string' ? out.error : 'server_error'
  const description =
    typeof out.error_description === 'string' ? out.error_description : ''
  return page(
    'Something went wrong',
    `<p class="error" role="alert" data-testid="error"><strong data-testid="error-code">${escapeHtml(error)}</strong>: <span data-testid="error-description">${escapeHtml(description)}</span></p>
<p class="muted">Go back to the app and start again.</p>`,
  )
}
