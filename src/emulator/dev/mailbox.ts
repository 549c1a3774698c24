/**
 * The dev mailbox: an in-memory store of the messages the emulated services
 * would send by email or SMS (one-time codes, magic links). People read them
 * on the mailbox page, tests through the mailbox JSON endpoint.
 *
 * @packageDocumentation
 */
import { BaseError } from '../../core/Errors.js'
import { normalizeContact } from '../contact.js'

/** One delivered message. */
export type Message = {
  /** The normalised recipient: a lower-cased email or a compact phone number. */
  readonly to: string
  /** What the message is, e.g. `'email-otp'`, `'sms-otp'`, `'magic-link'`. */
  readonly kind: string
  /** A one-time code, if the message carries one. */
  readonly code?: string | undefined
  /** A link to open, if the message carries one. */
  readonly link?: string | undefined
  /** When the message was delivered (ISO 8601). */
  readonly at: string
}

/** An in-memory mailbox. */
export type Store = {
  /**
   * Stores a message for its recipient instead of sending it.
   *
   * @returns The stored message, with `to` normalised and `at` set.
   * @throws {InvalidRecipientError} If `to` is empty once normalised, or
   *   longer than {@link maxRecipientLength}.
   */
  deliver(message: deliver.Parameters): Message
  /**
   * Lists the stored messages, newest first.
   *
   * @param options.to - Only messages for this recipient (normalised first).
   */
  list(options?: list.Parameters): readonly Message[]
  /** Removes every message. */
  clear(): void
}

export declare namespace deliver {
  type Parameters = {
    /** The recipient: an email address or a phone number. */
    to: string
    /** What the message is, e.g. `'email-otp'`. */
    kind: string
    /** A one-time code. */
    code?: string | undefined
    /** A link to open. */
    link?: string | undefined
  }
}

export declare namespace list {
  type Parameters = {
    /** Only messages for this recipient; all messages if absent. */
    to?: string | undefined
  }
}

/**
 * The most messages the mailbox keeps: 1000, the newest. Any page can make
 * a service send codes to addresses it makes up, so the mailbox is bounded.
 * A message is read right after it is sent (by a person, or by a test
 * looking up its own address), and a whole browser test run sends a few
 * hundred; the mailbox page, which renders every message and reloads every
 * 3 seconds, stays usable at 1000 rows.
 */
export const maxMessages = 1000

/**
 * The longest recipient: 254 characters, the longest email address a mail
 * server accepts (RFC 5321's limit on a forward path); phone numbers are
 * far shorter. It bounds what one message holds.
 */
export const maxRecipientLength = 254

/**
 * Creates an empty in-memory mailbox.
 *
 * @example
 * ```ts
 * import * as Mailbox from './mailbox.js'
 *
 * const mailbox = Mailbox.create()
 * mailbox.deliver({ to: 'Ada@Example.com ', kind: 'email-otp', code: '123456' })
 * mailbox.list({ to: 'ada@example.com' })
 * // [{ to: 'ada@example.com', kind: 'email-otp', code: '123456', at: '…' }]
 * ```
 *
 * @param options.now - The clock used to stamp messages. @default () => new Date()
 * @param options.onChange - Called after each delivery and clear.
 * @returns The mailbox.
 */
export function create(options: create.Options = {}): Store {
  const { now = () => new Date(), onChange } = options
  /** Oldest first. */
  const messages: Message[] = []
  return {
    deliver({ to, kind, code, link }) {
      const recipient = normalizeContact(to)
      if (!recipient) throw new InvalidRecipientError(to)
      if (recipient.length > maxRecipientLength)
        throw new InvalidRecipientError(to, 'too long')
      const message: Message = {
        to: recipient,
        kind,
        ...(code === undefined ? {} : { code }),
        ...(link === undefined ? {} : { link }),
        at: now().toISOString(),
      }
      messages.push(message)
      if (messages.length > maxMessages)
        messages.splice(0, messages.length - maxMessages)
      onChange?.()
      return message
    },
    list({ to } = {}) {
      const newestFirst = messages.toReversed()
      if (to === undefined) return newestFirst
      const recipient = normalizeContact(to)
      return newestFirst.filter((message) => message.to === recipient)
    },
    clear() {
      messages.length = 0
      onChange?.()
    },
  }
}

export declare namespace create {
  type Options = {
    /** The clock used to stamp messages. @default () => new Date() */
    now?: (() => Date) | undefined
    /** Called after each delivery and clear. */
    onChange?: (() => void) | undefined
  }
  type ReturnType = Store
}

/** Thrown when a message is delivered to an empty or too long recipient. */
export class InvalidRecipientError extends BaseError<undefined> {
  override readonly name = 'Mailbox.InvalidRecipientError'
  constructor(
    to: string,
    reason: 'no recipient' | 'too long' = 'no recipient',
  ) {
    super(
      reason === 'no recipient'
        ? `Cannot deliver a message to ${JSON.stringify(to)}: no recipient.`
        : `Cannot deliver a message to ${JSON.stringify(`${to.slice(0, 40)}…`)}: longer than ${maxRecipientLength} characters.`,
    )
  }
}
