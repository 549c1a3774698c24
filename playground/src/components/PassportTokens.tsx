import type { SignedInUser } from '../passport/usePassportSession.js'
import { PassportClaims } from './PassportClaims.js'

/** The session's ID and access tokens: each token and its main claims. */
export function PassportTokens(props: { user: SignedInUser }) {
  const { user } = props
  return (
    <div className="tokens">
      <PassportClaims
        title="ID token"
        token={user.idToken}
        testId="passport-id-token-claims"
      />
      <PassportClaims
        title="Access token"
        token={user.accessToken}
        testId="passport-access-token-claims"
      />
    </div>
  )
}
