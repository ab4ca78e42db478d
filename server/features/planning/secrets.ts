// Models never see secrets (docs/decisions/020): before a task description goes to the AI model,
// every value that reads as a password, a PIN, a code or a key is swapped for a placeholder such
// as {{secret 1}}. The model writes the placeholder into the steps it proposes, and the steps get
// the real value back on our side only.

export interface MaskedText {
  text: string
  secrets: Map<string, string>
}

const SECRET_WORDS = String.raw`(?:password|passcode|passphrase|pass\s*word|pwd|pin(?:\s+code)?|secret|token|api[\s-]*key|one[\s-]*time\s+code|otp|verification\s+code|security\s+code|cvv|cvc)`

// 'password hunter2', 'password: "a b"', 'the password is x', 'with pin 1234', 'password=x'.
const SECRET_VALUE = new RegExp(
  String.raw`(\b${SECRET_WORDS}\b(?:\s+(?:is|=|of|as))?\s*[:=]?\s*)("[^"]*"|“[^”]*”|'[^']*'|‘[^’]*’|[^\s,;]+)`,
  'gi',
)
// 'type hunter2 into the Password field': the value before a field named like a secret.
const SECRET_FIELD = new RegExp(
  String.raw`(\b(?:type|enter|input|write|put|paste|fill\s+in)\s+)("[^"]*"|“[^”]*”|'[^']*'|‘[^’]*’|\S+)(\s+(?:into|in|as)\s+(?:the\s+|my\s+|your\s+)?${SECRET_WORDS}\b)`,
  'gi',
)

const unquote = (value: string) => value.replace(/^["“'‘]|["”'’]$/g, '')

export function maskSecrets(text: string): MaskedText {
  const secrets = new Map<string, string>()
  const placeholderFor = (raw: string) => {
    const value = unquote(raw)
    for (const [placeholder, known] of secrets) if (known === value) return placeholder
    const placeholder = `{{secret ${secrets.size + 1}}}`
    secrets.set(placeholder, value)
    return placeholder
  }
  const masked = text
    .replace(SECRET_FIELD, (_, before: string, value: string, after: string) => `${before}${placeholderFor(value)}${after}`)
    .replace(SECRET_VALUE, (whole, before: string, value: string) => {
      // 'the password field', 'password and' name the field, not its value.
      if (/^(?:field|box|input|and|or|to|for|with|into|in|the|a|is|\{\{secret)/i.test(unquote(value))) return whole
      return `${before}${placeholderFor(value)}`
    })
  // A secret said twice is hidden everywhere.
  let everywhere = masked
  for (const [placeholder, value] of secrets) if (value.length >= 3) everywhere = everywhere.split(value).join(placeholder)
  return { text: everywhere, secrets }
}

/** The text with its placeholders back to their values (on our side, after the model answered). */
export function unmaskSecrets(text: string, secrets: Map<string, string>): string {
  let result = text
  for (const [placeholder, value] of secrets) result = result.split(placeholder).join(value)
  return result
}

/** The text with every known secret value swapped back to its placeholder (for prompts built from steps). */
export function hideSecrets(text: string, secrets: Map<string, string>): string {
  let result = text
  for (const [placeholder, value] of secrets) if (value) result = result.split(value).join(placeholder)
  return result
}
