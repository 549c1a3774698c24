import type { LogoutMode } from '../passport/config.js'
import type { SignedInUser } from '../passport/usePassportSession.js'

/**
 * The signed-in user's profile and the session actions (silent refresh,
 * and logout in either mode).
 */
export function PassportSession(props: {
  user: SignedInUser
  disabled: boolean
  onRefresh: () => void
  onLogout: (mode: LogoutMode) => void
}) {
  const { user, disabled, onRefresh, onLogout } = props
  const { profile } = user
  return (
    <>
      <dl className="facts" data-testid="passport-profile">
        <dt>Subject</dt>
        <dd data-testid="passport-profile-sub">{profile.sub}</dd>
        <dt>Email</dt>
        <dd data-testid="passport-profile-email">{profile.email ?? '—'}</dd>
        <dt>Nickname</dt>
        <dd data-testid="passport-profile-nickname">
          {profile.nickname ?? '—'}
        </dd>
      </dl>
      <div className="row">
        <button
          type="button"
          disabled={disabled}
          data-testid="passport-refresh"
          onClick={onRefresh}
        >
          Refresh (silent)
        </button>
        <button
          type="button"
          disabled={disabled}
          data-testid="passport-logout-redirect"
          onClick={() => onLogout('redirect')}
        >
          Log out (redirect)
        </button>
        <button
          type="button"
          disabled={disabled}
          data-testid="passport-logout-silent"
          onClick={() => onLogout('silent')}
        >
          Log out (silent)
        </button>
      </div>
    </>
  )
}
