import type { DeviceConnectResponse } from 'embedded-wallets/passport'

/**
 * The device flow while it waits: the user code and the verification link
 * (open it, sign in, approve; the panel polls meanwhile).
 */
export function PassportDevice(props: {
  device: DeviceConnectResponse
  /** Stops the polling. */
  onCancel: () => void
}) {
  const { device, onCancel } = props
  return (
    <div className="device" data-testid="passport-device">
      <p>
        Open{' '}
        <a
          href={device.url}
          target="_blank"
          rel="noreferrer"
          data-testid="passport-device-link"
        >
          {device.url}
        </a>
        , sign in and approve the code{' '}
        <code className="user-code" data-testid="passport-device-code">
          {device.code}
        </code>
        .
      </p>
      <p className="muted" data-testid="passport-device-interval">
        Polling every {device.interval} s until you approve.
      </p>
      <button
        type="button"
        onClick={onCancel}
        data-testid="passport-device-cancel"
      >
        Cancel
      </button>
    </div>
  )
}
