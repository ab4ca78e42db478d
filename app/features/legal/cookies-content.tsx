import { Form, Link } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import type { SiteConfig } from '#common/site.ts'
import type { LegalSection } from './legal-page.tsx'
import { DataTable } from '#app/components/data-table.tsx'

export const COOKIES_SUMMARY =
  'This policy explains what cookies are, which ones Aether uses and why, and how you can control them. Analytics cookies are only ever set with your consent.'

interface CookieRow {
  name: string
  category: 'Essential' | 'Functionality' | 'Analytics'
  purpose: string
  duration: string
  provider: string
}

const COOKIE_LIST: CookieRow[] = [
  {
    name: 'auth_session',
    category: 'Essential',
    purpose: 'Keeps you signed in to your account (the authenticated session).',
    duration: 'Session',
    provider: 'Aether',
  },
  {
    name: 'aether_device',
    category: 'Essential',
    purpose:
      'Remembers which accounts signed in on this browser, so that you can still sign in while someone else is guessing your password.',
    duration: '180 days',
    provider: 'Aether',
  },
  {
    name: 'aether_view_as',
    category: 'Essential',
    purpose:
      "Staff only: while an administrator views the site as a member for support, keeps the administrator's own session until the view ends.",
    duration: 'Until the view ends',
    provider: 'Aether',
  },
  {
    name: 'better-auth.two_factor',
    category: 'Essential',
    purpose: 'Between your password and your two-factor code: remembers that the password was right, for this sign-in only.',
    duration: '5 minutes',
    provider: 'Aether',
  },
  {
    name: 'better-auth.passkey_challenge',
    category: 'Essential',
    purpose: 'While you add or use a passkey: the one-time challenge your device signs.',
    duration: '5 minutes',
    provider: 'Aether',
  },
  {
    name: 'aether_flash',
    category: 'Functionality',
    purpose: 'Shows a one-time notice after an action, such as a confirmation message.',
    duration: '1 minute',
    provider: 'Aether',
  },
  {
    name: 'aether_theme',
    category: 'Functionality',
    purpose: 'Remembers your colour scheme: light, dark or system.',
    duration: '1 year',
    provider: 'Aether',
  },
  {
    name: 'aether_consent',
    category: 'Functionality',
    purpose: 'Remembers whether you accepted or rejected analytics cookies.',
    duration: '1 year',
    provider: 'Aether',
  },
  {
    name: '_ga',
    category: 'Analytics',
    purpose: 'Google Analytics: distinguishes unique users. Set only with your consent.',
    duration: '2 years',
    provider: 'Google',
  },
  {
    name: '_gid',
    category: 'Analytics',
    purpose: 'Google Analytics: distinguishes users for daily statistics. Set only with your consent.',
    duration: '24 hours',
    provider: 'Google',
  },
]

export function cookiesSections(site: SiteConfig): LegalSection[] {
  const analyticsEnabled = Boolean(site.analyticsId)
  return [
    {
      id: 'what-are-cookies',
      title: 'What Are Cookies',
      content: (
        <p>
          Cookies are small text files that a website stores in your browser. They let the site remember information between pages and
          visits, such as whether you are signed in or which colour scheme you prefer. Cookies set by the site you visit are first-party
          cookies; cookies set by another service are third-party cookies.
        </p>
      ),
    },
    {
      id: 'how-we-use-cookies',
      title: 'How We Use Cookies',
      content: (
        <>
          <h3>Essential cookies</h3>
          <p>Needed for the Service to work, for example to keep you signed in and protect your session. They cannot be switched off.</p>
          <h3>Analytical and performance cookies</h3>
          <p>
            Help us understand how visitors use the site so we can improve it. We use Google Analytics for this, and only when analytics is
            enabled on the site and you have accepted these cookies.
          </p>
          <h3>Functionality cookies</h3>
          <p>Remember your choices, such as your colour scheme and your cookie decision, and show one-time notices after an action.</p>
          <h3>Targeting cookies</h3>
          <p>
            We do not use targeting or advertising cookies. If that ever changes, we will ask for your consent first and update this policy.
          </p>
        </>
      ),
    },
    {
      id: 'third-party-cookies',
      title: 'Third-Party Cookies',
      content: (
        <p>
          The only third-party cookies on our site are Google Analytics’ <code>_ga</code> and <code>_gid</code>, and only after you accept
          them. When you buy a subscription, our payment provider’s checkout may set its own cookies to process the payment securely; those
          are governed by the provider’s cookie policy.
        </p>
      ),
    },
    {
      id: 'your-choices',
      title: 'Your Choices',
      content: (
        <>
          {analyticsEnabled ? (
            <>
              <p>
                When you first visit, a banner asks whether you accept analytics cookies. Until you accept, none are set. You can change
                your decision at any time below; rejecting also removes analytics cookies already stored.
              </p>
              <Form method="post" action="/preferences" className="flex flex-wrap gap-3 pt-1">
                <input type="hidden" name="returnTo" value="/cookies" />
                <Button type="submit" name="consent" value="accepted" size="sm">
                  Accept analytics cookies
                </Button>
                <Button type="submit" name="consent" value="rejected" variant="outline" size="sm">
                  Reject analytics cookies
                </Button>
              </Form>
            </>
          ) : (
            <p>
              <strong>No analytics cookies are used on this site.</strong> Analytics is not enabled here, so you will not see a cookie
              banner and only the essential and functionality cookies listed below are set.
            </p>
          )}
          <p>
            You can also block or delete cookies in your browser settings. Blocking essential cookies will stop you from signing in, and
            blocking functionality cookies means your preferences are not remembered.
          </p>
        </>
      ),
    },
    {
      id: 'cookie-list',
      title: 'Cookie List',
      content: (
        <DataTable
          caption="Cookies used on this site"
          regionLabel="Table of cookies"
          tableClassName="min-w-[36rem]"
          stack={false}
          headers={['Name', 'Category', 'Purpose', 'Duration', 'Provider']}
        >
          {COOKIE_LIST.map((cookie) => (
            <tr key={cookie.name} className="border-t align-top">
              <th scope="row" className="px-3 py-3 font-mono text-xs font-medium text-foreground">
                {cookie.name}
              </th>
              <td className="px-3 py-3">{cookie.category}</td>
              <td className="px-3 py-3">{cookie.purpose}</td>
              <td className="px-3 py-3 whitespace-nowrap">{cookie.duration}</td>
              <td className="px-3 py-3">{cookie.provider}</td>
            </tr>
          ))}
        </DataTable>
      ),
    },
    {
      id: 'changes-to-this-policy',
      title: 'Changes to This Policy',
      content: (
        <p>
          We update this policy whenever we add, remove or change a cookie. The date at the top of the page shows the latest version. See
          also our <Link to="/terms">Terms of Service</Link> and <Link to="/privacy">Privacy Policy</Link>.
        </p>
      ),
    },
    {
      id: 'contact-us',
      title: 'Contact Us',
      content: (
        <p>
          Questions about cookies? E-mail <a href={`mailto:${site.supportEmail}`}>{site.supportEmail}</a> or use our{' '}
          <Link to="/contact">contact form</Link>.
        </p>
      ),
    },
  ]
}
