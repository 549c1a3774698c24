/**
 * NFT metadata: what the indexer keeps of it (the fields of the API's
 * `Metadata`), read from an on-chain `data:application/json` URI (the
 * emulator never fetches another URL), or given by the emulator's minting
 * backend and the refresh routes, checked as the API checks a
 * `NFTMetadataRequest`.
 *
 * @packageDocumentation
 */
import { type Attribute, type DisplayType, displayTypes } from './schema.js'

/** An NFT's metadata as the indexer keeps it: every field, null when absent. */
export type Content = {
  name: string | null
  description: string | null
  image: string | null
  external_url: string | null
  animation_url: string | null
  youtube_url: string | null
  attributes: Attribute[] | null
}

/** The largest metadata object the API accepts, serialised: 16 KiB. */
export const maxMetadataBytes = 16 * 1024

/** The longest token URI the indexer decodes: 256 KiB. */
export const maxTokenUriLength = 256 * 1024

/** The fields of {@link Content}, in the order the key of a content uses. */
const fields = [
  'name',
  'description',
  'image',
  'external_url',
  'animation_url',
  'youtube_url',
] as const

/**
 * A string that is the same for equal contents: NFTs whose metadata have
 * the same key are one stack.
 */
export function contentKey(content: Content): string {
  return JSON.stringify([
    ...fields.map((field) => content[field]),
    content.attributes?.map((attribute) => [
      attribute.trait_type,
      attribute.value,
      attribute.display_type ?? null,
    ]) ?? null,
  ])
}

/**
 * The JSON object a `data:application/json` URI carries (base64 or
 * percent-encoded), or `undefined` for any other URI, an undecodable one
 * or one that is not an object. No URL is ever fetched.
 *
 * @example
 * ```ts
 * jsonOfDataUri('data:application/json,%7B%22name%22%3A%22A%22%7D') // { name: 'A' }
 * jsonOfDataUri('https://example.com/1.json') // undefined
 * ```
 */
export function jsonOfDataUri(
  uri: string,
): Record<string, unknown> | undefined {
  if (uri.length > maxTokenUriLength) return undefined
  const match = /^data:application\/json((?:;[^,;]*)*),(.*)$/is.exec(uri.trim())
  if (!match) return undefined
  const parameters = (match[1] ?? '').toLowerCase().split(';')
  const payload = match[2] ?? ''
  let text: string
  try {
    text = parameters.includes('base64')
      ? Buffer.from(decodeURIComponent(payload), 'base64').toString('utf8')
      : decodeURIComponent(payload)
  } catch {
    return undefined
  }
  try {
    const value: unknown = JSON.parse(text)
    return isRecord(value) ? value : undefined
  } catch {
    return undefined
  }
}

/**
 * The metadata of a token URI's JSON (the ERC-721 and ERC-1155 metadata
 * JSON, with the marketplace fields the API serves). Fields of the wrong
 * type are left out, attributes that are not `{ trait_type, value }` too.
 */
export function contentOfJson(json: Record<string, unknown>): Content {
  const text = (value: unknown) => (typeof value === 'string' ? value : null)
  return {
    name: text(json.name),
    description: text(json.description),
    image: text(json.image) ?? text(json.image_url),
    external_url: text(json.external_url) ?? text(json.external_link),
    animation_url: text(json.animation_url),
    youtube_url: text(json.youtube_url),
    attributes: Array.isArray(json.attributes)
      ? json.attributes.flatMap((item) => {
          const attribute = attributeOf(item)
          return typeof attribute === 'string' ? [] : [attribute]
        })
      : null,
  }
}

/**
 * The ERC-1155 URI of token `id`: its `{id}` placeholder replaced by the
 * id as 64 lowercase hex digits (EIP-1155's metadata rule).
 */
export function erc1155Uri(uri: string, id: bigint): string {
  return uri.replaceAll('{id}', id.toString(16).padStart(64, '0'))
}

/**
 * Checks an `NFTMetadataRequest` as the API does (strings or null,
 * attributes of `{ trait_type, value, display_type? }`, at most 16 KiB).
 * With `required`, every field must be present (the refresh routes'
 * `RefreshableNFTAttributes`).
 *
 * @returns The content, or why the input is refused.
 */
export function contentOfInput(
  input: unknown,
  options: { required?: boolean | undefined; where?: string | undefined } = {},
): Content | string {
  const { required = false, where = 'metadata' } = options
  if (!isRecord(input)) return `${where} must be an object.`
  if (sizeOf(input) > maxMetadataBytes)
    return `${where} must not exceed ${maxMetadataBytes / 1024} KiB.`
  const content: Content = {
    name: null,
    description: null,
    image: null,
    external_url: null,
    animation_url: null,
    youtube_url: null,
    attributes: null,
  }
  for (const field of fields) {
    const value = input[field]
    if (value === undefined) {
      if (required) return `${where}.${field} is required (a string or null).`
      continue
    }
    if (value !== null && typeof value !== 'string')
      return `${where}.${field} must be a string or null.`
    content[field] = value
  }
  const attributes = input.attributes
  if (attributes === undefined) {
    if (required) return `${where}.attributes is required (an array or null).`
  } else if (attributes !== null) {
    if (!Array.isArray(attributes))
      return `${where}.attributes must be an array or null.`
    const checked: Attribute[] = []
    for (const [i, item] of attributes.entries()) {
      const attribute = attributeOf(item)
      if (typeof attribute === 'string')
        return `${where}.attributes[${i}] ${attribute}`
      checked.push(attribute)
    }
    content.attributes = checked
  }
  return content
}

function attributeOf(item: unknown): Attribute | string {
  if (!isRecord(item)) return 'must be an object.'
  const { trait_type, value, display_type } = item
  if (typeof trait_type !== 'string') return 'needs a string trait_type.'
  if (
    typeof value !== 'string' &&
    typeof value !== 'boolean' &&
    !(typeof value === 'number' && Number.isFinite(value))
  )
    return 'needs a value (a string, a number or a boolean).'
  if (display_type === undefined || display_type === null)
    return display_type === null
      ? { display_type: null, trait_type, value }
      : { trait_type, value }
  if (!displayTypes.includes(display_type as DisplayType))
    return `has a display_type other than ${displayTypes.join(', ')}.`
  return { display_type: display_type as DisplayType, trait_type, value }
}

/** The JSON size of a value in bytes; nesting too deep to serialise counts as too large. */
export function sizeOf(value: unknown): number {
  try {
    return Buffer.byteLength(JSON.stringify(value) ?? '')
  } catch {
    return Number.POSITIVE_INFINITY
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
