import { decodeJwtPayload } from '../passport/config.js'
import { formatDateTime } from '../ui/format.js'

/**
 * One token's claims, decoded for display only (the facade verified the
 * token), with when it was issued and when it expires as local date and
 * time.
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
      <h3>{title}</h3>
      {(iat || exp) && (
        <dl className="facts">
          {iat && (
            <>
              <dt>Issued</dt>
              <dd data-testid={`${testId}-issued`}>{formatDateTime(iat)}</dd>
            </>
          )}
          {exp && (
            <>
              <dt>{expired ? 'Expired' : 'Expires'}</dt>
              <dd
                data-testid={`${testId}-expiry`}
                className={expired ? 'error' : undefined}
              >
                {formatDateTime(exp)}
              </dd>
            </>
          )}
        </dl>
      )}
      <pre data-testid={testId}>
        {token === undefined
          ? 'No token.'
          : claims === undefined
            ? 'Not a readable JWT.'
            : JSON.stringify(claims, null, 2)}
      </pre>
    </div>
  )
}

/** A JWT time claim (seconds since the epoch) as a date. */
function secondsOf(value: unknown): Date | undefined {
  return typeof value === 'number' && Number.isFinite(value)
    ? new Date(value * 1000)
    : undefined
}
