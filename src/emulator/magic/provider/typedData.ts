/**
 * Server-side checks of EIP-712 typed data: int/uint widths a multiple of 8
 * from 8 to 256, bytesN with N from 1 to 32, no circular, duplicated or
 * unknown types, exactly one primary type, a non-negative domain chainId
 * and a 32-byte salt. Any other shape (a field that is not
 * `{ name, type }` strings, a type named after an `Object.prototype`
 * member) is -32602 too, never an internal error.
 */
import { failures } from './errors.js'

type Field = { name: string; type: string }

/** Typed data as `eth_signTypedData_v3/_v4` carry it. */
export type TypedData = {
  types: Record<string, Field[]>
  primaryType: string
  domain: Record<string, unknown>
  message: Record<string, unknown>
}

const atomic = new Set(['address', 'bool', 'string', 'bytes'])

/**
 * Parses (JSON string or object) and validates typed data.
 *
 * @throws {RpcFailure} -32602 naming the first broken rule.
 */
export function parseTypedData(value: unknown): TypedData {
  let data: unknown = value
  if (typeof value === 'string') {
    try {
      data = JSON.parse(value)
    } catch {
      throw failures.invalidParams('The typed data is not valid JSON.')
    }
  }
  const typed = data as Partial<TypedData> | null
  if (
    typeof typed !== 'object' ||
    typed === null ||
    typeof typed.types !== 'object' ||
    typed.types === null ||
    typeof typed.primaryType !== 'string' ||
    typeof typed.message !== 'object'
  )
    throw failures.invalidParams(
      'The typed data needs types, primaryType, domain and message.',
    )
  const types = typed.types as Record<string, Field[]>
  const structs = Object.keys(types)

  for (const [name, fields] of Object.entries(types)) {
    if (!Array.isArray(fields))
      throw failures.invalidParams(`Type ${name} is not a list of fields.`)
    const seen = new Set<string>()
    for (const field of fields as unknown[]) {
      if (!isField(field))
        throw failures.invalidParams(
          `Type ${name} has a field that is not { name, type } strings.`,
        )
      if (seen.has(field.name))
        throw failures.invalidParams(
          `Type ${name} has the field ${field.name} twice.`,
        )
      seen.add(field.name)
      checkType(field.type, structs)
    }
  }

  // References between structs: no cycles, exactly one root.
  const refs = (name: string) =>
    (types[name] ?? [])
      .map((field) => baseType(field.type))
      .filter((type) => Object.hasOwn(types, type))
  const visiting = new Set<string>()
  const done = new Set<string>()
  const visit = (name: string) => {
    if (done.has(name)) return
    if (visiting.has(name))
      throw failures.invalidParams(`Type ${name} is circular.`)
    visiting.add(name)
    for (const ref of refs(name)) visit(ref)
    visiting.delete(name)
    done.add(name)
  }
  for (const name of structs) visit(name)
  const referenced = new Set(structs.flatMap(refs))
  const roots = structs.filter(
    (name) => name !== 'EIP712Domain' && !referenced.has(name),
  )
  if (roots.length !== 1)
    throw failures.invalidParams(
      `The typed data must have exactly one primary type; it has ${roots.length} (${roots.join(', ')}).`,
    )
  if (!Object.hasOwn(types, typed.primaryType))
    throw failures.invalidParams(
      `The primary type ${typed.primaryType} is not defined.`,
    )

  const domain = (typed.domain ?? {}) as Record<string, unknown>
  if (domain.chainId !== undefined) {
    let chainId: bigint
    try {
      chainId = BigInt(domain.chainId as string | number)
    } catch {
      throw failures.invalidParams('The domain chainId is not a number.')
    }
    if (chainId < 0n)
      throw failures.invalidParams('The domain chainId is negative.')
  }
  if (
    domain.salt !== undefined &&
    !(
      typeof domain.salt === 'string' && /^0x[0-9a-fA-F]{64}$/.test(domain.salt)
    )
  )
    throw failures.invalidParams('The domain salt is not 32 bytes.')

  return {
    types,
    primaryType: typed.primaryType,
    domain,
    message: typed.message as Record<string, unknown>,
  }
}

function isField(value: unknown): value is Field {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Field).name === 'string' &&
    typeof (value as Field).type === 'string'
  )
}

function baseType(type: string): string {
  return type.replace(/(\[\d*\])+$/, '')
}

function checkType(type: string, structs: readonly string[]) {
  const base = baseType(type)
  if (atomic.has(base) || structs.includes(base)) return
  const int = /^u?int(\d+)$/.exec(base)
  if (int) {
    const width = Number(int[1])
    if (width >= 8 && width <= 256 && width % 8 === 0) return
    throw failures.invalidParams(
      `Invalid type ${type}: the width must be a multiple of 8 from 8 to 256.`,
    )
  }
  const bytes = /^bytes(\d+)$/.exec(base)
  if (bytes) {
    const size = Number(bytes[1])
    if (size >= 1 && size <= 32) return
    throw failures.invalidParams(
      `Invalid type ${type}: bytesN needs N from 1 to 32.`,
    )
  }
  throw failures.invalidParams(`Unknown type ${type}.`)
}
