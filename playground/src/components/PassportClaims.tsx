import { decodeJwtPayload } from '../passport/config.js'
import { formatDateTime, toJson } from '../ui/format.js'
import { LongValue } from '../ui/LongValue.js'

/** The claims shown as facts; the others are in the JSON on demand. */
const main = ['sub', 'email', 'iss', 'aud', 'client_id', 'scope'] as const

/**
 * One token, shortened with copy and expand, and its main claims, decoded
 * for display only (the facade verified the token): who it is for, who
 * issued it, and when it was issued and expires, as local date and time.
 * Every claim is in the JSON, folded away.
 */
export function PassportClaims(props: {
  title: string
  token: string | undefined
  testId: string
}) {
  const { title, token, testId } = props
  const claims = token === undefined ? undefined : decodeJwtPayload(token)
  const exp = secondsOf(claims?.exp)
  const iat = secondsOf(claims?.iat)
  const expired = exp !== undefined && exp.getTime() <= Date.now()
  return (
    <div className="claims">
      <h4>{title}</h4>
      {token === undefined ? (
        <p className="muted">No token.</p>
      ) : (
        <LongValue value={token} keep={12} testId={`${testId}-token`} />
      )}
      {token !== undefined && claims === undefined && (
        <p className="error">Not a readable JWT.</p>
      )}
      {claims && (
        <dl className="facts" data-testid={testId}>
          {main.flatMap((name) =>
            claims[name] === undefined
              ? []
              : [
                  <div className="fact-row" key={name}>
                    <dt>{name}</dt>
                    <dd data-testid={`${testId}-${name}`}>
                      {claimText(claims[name])}
                    </dd>
                  </div>,
                ],
          )}
          {iat && (
            <div className="fact-row">
              <dt>Issued</dt>
              <dd data-testid={`${testId}-issued`}>{formatDateTime(iat)}</dd>
            </div>
          )}
          {exp && (
            <div className="fact-row">
              <dt>{expired ? 'Expired' : 'Expires'}</dt>
              <dd
                data-testid={`${testId}-expiry`}
                className={expired ? 'error' : undefined}
              >
                {formatDateTime(exp)}
              </dd>
            </div>
          )}
        </dl>
      )}
      {claims && (
        <details>
          <summary>All claims</summary>
          <pre data-testid={`${testId}-json`}>{toJson(claims)}</pre>
        </details>
      )}
    </div>
  )
}

/** A claim in words: strings as they are, lists joined, the rest as JSON. */
function claimText(value: unknown): string {
  if (typeof value === 'string') return value
  if (Array.isArray(value)) return value.map(String).join(', ')
  return JSON.stringify(value)
}

/** A JWT time claim (seconds since the epoch) as a date. */
function secondsOf(value: unknown): Date | undefined {
  return typeof value === 'number' && Number.isFinite(value)
    ? new Date(value * 1000)
    : undefined
}
