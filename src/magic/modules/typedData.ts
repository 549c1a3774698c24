/**
 * EIP-712 typed-data checks run before `eth_signTypedData_v3/v4` is sent:
 * int/uint widths, bytesN sizes, known, non-duplicated and non-circular
 * types, exactly one primary type, a non-negative domain chainId and a
 * 32-byte salt.
 *
 * Loaded with `import()` on the first typed-data request, so that dApps that
 * never sign typed data do not download it.
 */

type Field = { name: string; type: string }
type Types = Record<string, readonly Field[]>

/**
 * Checks the typed data of a `eth_signTypedData_v3/v4` request's params
 * (`[address, typedData]`, typed data as an object or a JSON string).
 * Throws a `TypeError` naming the first problem (`Invalid typed data: …`);
 * the provider answers it as a -32602 `MagicRPCError`. No import of the
 * error classes here keeps this lazily loaded chunk self-contained.
 *
 * @example
 * ```ts
 * validateParams(['0xabc…', { types, primaryType: 'Mail', domain, message }])
 * ```
 */
export function validateParams(params: unknown): void {
  const data = Array.isArray(params) ? params[1] : undefined
  let typedData: unknown = data
  if (typeof data === 'string') {
    try {
      typedData = JSON.parse(data)
    } catch {
      throw invalid('the typed data is not valid JSON.')
    }
  }
  validate(typedData)
}

/** Checks one typed-data object; see {@link validateParams}. */
export function validate(typedData: unknown): void {
  if (!isObject(typedData)) throw invalid('the typed data must be an object.')
  const { domain, primaryType, types } = typedData
  if (!isObject(types)) throw invalid('`types` must be an object.')
  for (const [name, fields] of Object.entries(types)) {
    if (!Array.isArray(fields))
      throw invalid(`type \`${name}\` must be a list of fields.`)
    const seen = new Set<string>()
    for (const field of fields as unknown[]) {
      if (!isObject(field) || typeof field.name !== 'string')
        throw invalid(`type \`${name}\` has a field without a name.`)
      if (typeof field.type !== 'string')
        throw invalid(`field \`${name}.${field.name}\` has no type.`)
      if (seen.has(field.name))
        throw invalid(
          `type \`${name}\` has a duplicate field \`${field.name}\`.`,
        )
      seen.add(field.name)
      checkType(field.type, types as Types, `${name}.${field.name}`)
    }
  }
  checkCycles(types as Types)
  checkPrimaryType(types as Types, primaryType)
  if (domain !== undefined) checkDomain(domain)
}

const atomic = new Set(['address', 'bool', 'string', 'bytes'])

function checkType(type: string, types: Types, where: string) {
  const base = baseType(type)
  if (atomic.has(base) || base in types) return
  const integer = /^u?int(\d*)$/.exec(base)
  if (integer) {
    const width = integer[1] ? Number(integer[1]) : 256
    if (width % 8 !== 0 || width < 8 || width > 256)
      throw invalid(
        `\`${where}\` has type \`${base}\`: the width must be a multiple of 8 from 8 to 256.`,
      )
    return
  }
  const bytes = /^bytes(\d+)$/.exec(base)
  if (bytes) {
    const size = Number(bytes[1])
    if (size < 1 || size > 32)
      throw invalid(
        `\`${where}\` has type \`${base}\`: bytesN must have N from 1 to 32.`,
      )
    return
  }
  throw invalid(`\`${where}\` has unknown type \`${base}\`.`)
}

/** `Person[2][]` → `Person`. */
function baseType(type: string): string {
  return type.replace(/(\[\d*\])+$/, '')
}

function references(types: Types, name: string): string[] {
  return (types[name] ?? [])
    .map((field) => baseType(field.type))
    .filter((type) => type in types)
}

function checkCycles(types: Types) {
  const done = new Set<string>()
  const visit = (name: string, path: string[]) => {
    if (path.includes(name))
      throw invalid(
        `circular type reference: ${[...path, name].map((t) => `\`${t}\``).join(' → ')}.`,
      )
    if (done.has(name)) return
    for (const child of references(types, name)) visit(child, [...path, name])
    done.add(name)
  }
  for (const name of Object.keys(types)) visit(name, [])
}

function checkPrimaryType(types: Types, primaryType: unknown) {
  if (typeof primaryType !== 'string')
    throw invalid('`primaryType` must be a string.')
  if (!(primaryType in types))
    throw invalid(`primary type \`${primaryType}\` is not in \`types\`.`)
  if (primaryType === 'EIP712Domain') return
  const referenced = new Set(
    Object.keys(types).flatMap((name) => references(types, name)),
  )
  const roots = Object.keys(types).filter(
    (name) => name !== 'EIP712Domain' && !referenced.has(name),
  )
  if (roots.length !== 1)
    throw invalid(
      `there must be exactly one primary type, found ${roots.length === 0 ? 'none' : roots.map((t) => `\`${t}\``).join(', ')}.`,
    )
  if (roots[0] !== primaryType)
    throw invalid(
      `primary type \`${primaryType}\` is referenced by another type; the primary type is \`${roots[0]}\`.`,
    )
}

function checkDomain(domain: unknown) {
  if (!isObject(domain)) throw invalid('`domain` must be an object.')
  const { chainId, salt } = domain
  if (chainId !== undefined) {
    let value: bigint
    try {
      value = BigInt(chainId as string | number | bigint)
    } catch {
      throw invalid('`domain.chainId` must be an integer.')
    }
    if (value < 0n) throw invalid('`domain.chainId` must not be negative.')
  }
  if (salt !== undefined && !isBytes32(salt))
    throw invalid('`domain.salt` must be 32 bytes.')
}

function isBytes32(value: unknown): boolean {
  if (typeof value === 'string') return /^0x[0-9a-fA-F]{64}$/.test(value)
  if (value instanceof Uint8Array) return value.length === 32
  if (Array.isArray(value))
    return (
      value.length === 32 &&
      value.every((byte) => Number.isInteger(byte) && byte >= 0 && byte < 256)
    )
  return false
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function invalid(reason: string): TypeError {
  return new TypeError(`Invalid typed data: ${reason}`)
}
