/**
 * Passkey MFA during `loginWithEmailOTP`: on `mfa-passkey-options` the SDK
 * asks the browser for a WebAuthn assertion and answers the flow with
 * `mfa-passkey-assertion-response` (the credential as JSON) or
 * `mfa-passkey-assertion-error` (the error message).
 */

/** WebAuthn request options as JSON (base64url binary fields). */
type RequestOptionsJson = {
  challenge: string
  allowCredentials?: { id: string; type: string; transports?: string[] }[]
  [key: string]: unknown
}

/**
 * Runs the assertion; resolves to the intermediary event that answers the
 * flow: its type and its argument. Never rejects.
 *
 * Loaded with `import()` when the provider asks for a passkey, so dApps
 * whose users never meet passkey MFA do not download it.
 */
export async function assert(
  webauthnOptions: unknown,
): Promise<[eventType: string, args: unknown]> {
  try {
    const credential = await navigator.credentials.get({
      publicKey: toRequestOptions(webauthnOptions as RequestOptionsJson),
    })
    return [
      'mfa-passkey-assertion-response',
      toJson(credential as PublicKeyCredential),
    ]
  } catch (error) {
    return [
      'mfa-passkey-assertion-error',
      (error as Error | undefined)?.message ?? '',
    ]
  }
}

function toRequestOptions(
  json: RequestOptionsJson,
): PublicKeyCredentialRequestOptions {
  const parse = (
    globalThis.PublicKeyCredential as
      | { parseRequestOptionsFromJSON?: (json: unknown) => unknown }
      | undefined
  )?.parseRequestOptionsFromJSON
  if (parse) return parse(json) as PublicKeyCredentialRequestOptions
  return {
    ...json,
    challenge: decode(json.challenge),
    allowCredentials: (json.allowCredentials ?? []).map((credential) => ({
      ...credential,
      id: decode(credential.id),
      type: 'public-key',
      transports: credential.transports as AuthenticatorTransport[],
    })),
  } as PublicKeyCredentialRequestOptions
}

function toJson(credential: PublicKeyCredential): unknown {
  if (typeof credential.toJSON === 'function') return credential.toJSON()
  const response = credential.response as AuthenticatorAssertionResponse
  return {
    id: credential.id,
    rawId: encode(credential.rawId),
    response: {
      authenticatorData: encode(response.authenticatorData),
      clientDataJSON: encode(response.clientDataJSON),
      signature: encode(response.signature),
      userHandle: response.userHandle ? encode(response.userHandle) : undefined,
    },
    authenticatorAttachment: credential.authenticatorAttachment,
    clientExtensionResults: {},
    type: credential.type,
  }
}
// Base64url with the platform's `btoa` / `atob` (forgiving about missing
// padding). Written out here rather than imported from ../keys/base64.ts so
// that this lazily loaded chunk shares no module with the entry chunk.
function encode(buffer: ArrayBuffer): string {
  return btoa(String.fromCharCode(...new Uint8Array(buffer)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}

function decode(text: string): ArrayBuffer {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'))
  return Uint8Array.from(binary, (char) => char.charCodeAt(0)).buffer
}
