import type { RecordedStep } from './recording-steps.ts'

/** What the browser says about a page that opened in a tab (chrome.webNavigation.onCommitted). */
export interface CommittedNavigation {
  frameId: number
  url: string
  transitionType: string
  transitionQualifiers: string[]
}

/** The ways a member opens a page themselves: the address bar, a bookmark, a search, back and forward. */
const BY_THE_MEMBER = new Set(['typed', 'auto_bookmark', 'generated', 'keyword', 'keyword_generated', 'start_page'])

/**
 * The `navigate` step a page opening in the recorded tab makes, or null when the page opened
 * because of a recorded step (a link or a form: replaying the click opens it again), a script
 * or a reload, or in a frame.
 */
export function navigationStep(navigation: CommittedNavigation): RecordedStep | null {
  if (navigation.frameId !== 0 || !/^https?:\/\//i.test(navigation.url)) return null
  const qualifiers = new Set(navigation.transitionQualifiers)
  if (qualifiers.has('client_redirect')) return null
  const byMember = BY_THE_MEMBER.has(navigation.transitionType) || qualifiers.has('forward_back') || qualifiers.has('from_address_bar')
  return byMember ? { type: 'navigate', url: navigation.url } : null
}
