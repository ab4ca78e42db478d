import { Link } from 'react-router'
import type { SiteConfig } from '#common/site.ts'
import type { LegalSection } from './legal-page.tsx'

export const PRIVACY_SUMMARY =
  'This policy explains what personal data Aether collects when you use our website and products, why we collect it, how we protect it and the rights you have over it.'

export function privacySections(site: SiteConfig): LegalSection[] {
  const company = site.companyName
  return [
    {
      id: 'introduction',
      title: 'Introduction',
      content: (
        <p>
          {company} respects your privacy. We collect only the data we need to run the Service, we never sell it, and we are open about how
          we use it. This policy applies to our website, browser extension, desktop apps, dashboard and API. {company} is the controller of
          your personal data.
        </p>
      ),
    },
    {
      id: 'data-we-collect',
      title: 'Data We Collect',
      content: (
        <>
          <p>Depending on how you use the Service, we process the following categories of data:</p>
          <ul>
            <li>
              <strong>Identity data:</strong> your name and account identifier.
            </li>
            <li>
              <strong>Contact data:</strong> your e-mail address and anything you send us through the contact or inquiry forms.
            </li>
            <li>
              <strong>Technical data:</strong> IP address, browser type and version, device and operating system, and log data such as
              access times.
            </li>
            <li>
              <strong>Usage data:</strong> how you use the Service, such as the automations you create and run, their status and the credits
              used.
            </li>
          </ul>
          <p>
            Payments are handled by our payment provider. We receive a record of your subscription and payments, but never your full card
            number.
          </p>
        </>
      ),
    },
    {
      id: 'how-we-use-your-data',
      title: 'How We Use Your Data',
      content: (
        <ul>
          <li>To create and manage your account and provide the Service you signed up for (performance of a contract).</li>
          <li>To process payments, subscriptions and refunds (performance of a contract and legal obligations).</li>
          <li>To answer your messages and inquiries, usually within 24 hours on working days.</li>
          <li>To keep the Service secure, prevent abuse and fix problems (legitimate interests).</li>
          <li>To understand how the Service is used and improve it, using analytics only with your consent.</li>
          <li>To send important service notices. We send marketing e-mails only if you opt in, and you can opt out at any time.</li>
        </ul>
      ),
    },
    {
      id: 'data-security',
      title: 'Data Security',
      content: (
        <p>
          All traffic to the Service is encrypted in transit. Passwords are stored only as strong one-way hashes, sessions use secure,
          HTTP-only cookies, and access to production systems is restricted and logged. No system is perfectly secure, but if a breach
          affecting your data ever occurs we will inform you and the relevant authority as the law requires.
        </p>
      ),
    },
    {
      id: 'data-retention',
      title: 'Data Retention',
      content: (
        <p>
          We keep your account data for as long as your account is active. When you delete your account we delete or anonymise your personal
          data within 30 days, except records we must keep by law, such as invoices, which are retained for the statutory period (usually up
          to 10 years). Server logs are kept for no longer than 90 days.
        </p>
      ),
    },
    {
      id: 'your-legal-rights',
      title: 'Your Legal Rights',
      content: (
        <>
          <p>Under data protection laws such as the GDPR you have the right to:</p>
          <ul>
            <li>access the personal data we hold about you and receive a copy;</li>
            <li>have inaccurate data corrected;</li>
            <li>have your data erased;</li>
            <li>restrict or object to our processing;</li>
            <li>receive your data in a portable format;</li>
            <li>withdraw consent at any time, where processing is based on consent.</li>
          </ul>
          <p>
            To use any of these rights, e-mail <a href={`mailto:${site.supportEmail}`}>{site.supportEmail}</a>. We answer within one month.
            You may also complain to your local data protection authority.
          </p>
        </>
      ),
    },
    {
      id: 'cookies',
      title: 'Cookies',
      content: (
        <p>
          We use a small number of cookies to keep you signed in and remember your preferences, and analytics cookies only if you accept
          them. Our <Link to="/cookies">Cookie Policy</Link> lists every cookie and explains how to change your choice.
        </p>
      ),
    },
    {
      id: 'changes-to-this-policy',
      title: 'Changes to This Policy',
      content: (
        <p>
          We may update this policy as the Service evolves. The date at the top of the page shows the latest version, and we will tell you
          by e-mail or in the dashboard about any significant change. See also our <Link to="/terms">Terms of Service</Link>.
        </p>
      ),
    },
    {
      id: 'contact-us',
      title: 'Contact Us',
      content: (
        <p>
          For any privacy question or request, e-mail <a href={`mailto:${site.supportEmail}`}>{site.supportEmail}</a> or use our{' '}
          <Link to="/contact">contact form</Link>.
        </p>
      ),
    },
  ]
}
