import { decodeJwtPayload } from '../passport/config.js'

/**
 * One token's claims, decoded for display only (the facade verified the
 * token), with its expiry in local time.
 */
export function PassportClaims(props: {
  title: string
  token: string | undefined
  testId: string
}) {
  const { title, token, testId } = props
  const claims = token === undefined ? undefined : decodeJwtPayload(token)
  const exp = typeof claims?.exp === 'number' ? claims.exp : undefined
  return (
    <div className="claims">
      <h3>
        {title}
        {exp !== undefined && (
          <span className="muted" data-testid={`${testId}-expiry`}>
            {' '}
            (expires {new Date(exp * 1000).toLocaleTimeString()})
          </span>
        )}
      </h3>
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
