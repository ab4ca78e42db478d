import { Link } from 'react-router'
import type { SiteConfig } from '#common/site.ts'
import type { LegalSection } from './legal-page.tsx'

export const TERMS_SUMMARY =
  'These terms explain the agreement between you and Aether when you use our website, browser extension, desktop apps and dashboard. Please read them carefully.'

export function termsSections(site: SiteConfig): LegalSection[] {
  const company = site.companyName
  return [
    {
      id: 'introduction',
      title: 'Introduction',
      content: (
        <>
          <p>
            Welcome to {company}. {company} is an AI-powered automation platform operated by a one-person company founded in{' '}
            {site.foundedYear}. These Terms of Service (the “Terms”) govern your access to and use of our website, browser extension,
            desktop applications, dashboard and API (together, the “Service”).
          </p>
          <p>
            How we handle personal data is described in our <Link to="/privacy">Privacy Policy</Link> and our use of cookies in our{' '}
            <Link to="/cookies">Cookie Policy</Link>. Both form part of these Terms.
          </p>
        </>
      ),
    },
    {
      id: 'definitions',
      title: 'Definitions',
      content: (
        <ul>
          <li>
            <strong>“{company}”, “we”, “us”, “our”</strong> means the operator of the Service.
          </li>
          <li>
            <strong>“You”, “User”</strong> means any person or organisation that accesses or uses the Service.
          </li>
          <li>
            <strong>“Account”</strong> means the account you create to use the Service.
          </li>
          <li>
            <strong>“Automation”</strong> means a task, workflow or script you create, record or run with the Service.
          </li>
          <li>
            <strong>“Subscription”</strong> means a paid plan that gives you access to features and credits for a billing period.
          </li>
          <li>
            <strong>“Content”</strong> means any data, text, files or other material you submit to or process with the Service.
          </li>
        </ul>
      ),
    },
    {
      id: 'acceptance',
      title: 'Acceptance',
      content: (
        <p>
          By creating an account or using the Service you agree to these Terms and to our{' '}
          <Link to="/acceptable-use">Acceptable Use Policy</Link>. If you use the Service on behalf of an organisation, you confirm that you
          may bind it to these Terms. If you do not agree, please do not use the Service. You must be at least 16 years old to use the
          Service.
        </p>
      ),
    },
    {
      id: 'user-accounts',
      title: 'User Accounts',
      content: (
        <>
          <p>
            You are responsible for keeping your login details confidential and for everything that happens under your account. Give us
            accurate information and keep it up to date.
          </p>
          <p>
            Tell us straight away at <a href={`mailto:${site.supportEmail}`}>{site.supportEmail}</a> if you suspect unauthorised access. We
            may suspend or close accounts that break these Terms or put other users or the Service at risk.
          </p>
        </>
      ),
    },
    {
      id: 'intellectual-property',
      title: 'Intellectual Property',
      content: (
        <>
          <p>
            The Service, including its software, design, text and logos, belongs to {company} and is protected by intellectual property
            laws. We grant you a personal, non-exclusive, non-transferable licence to use the Service while your account is active and in
            line with these Terms.
          </p>
          <p>
            You keep all rights to your Content and your Automations. You give us only the permission we need to store, process and display
            them in order to run the Service for you.
          </p>
        </>
      ),
    },
    {
      id: 'limitation-of-liability',
      title: 'Limitation of Liability',
      content: (
        <>
          <p>
            The Service is provided “as is” and “as available”. Automations act on websites and applications we do not control, so we cannot
            guarantee that every run succeeds or that third-party sites allow automated use. You are responsible for checking that your
            Automations are lawful and permitted.
          </p>
          <p>
            To the extent the law allows, {company} is not liable for indirect, incidental or consequential losses, or for loss of profits,
            data or goodwill. Our total liability for any claim is limited to the amount you paid us in the 12 months before the claim.
            Nothing in these Terms limits liability that cannot be limited by law.
          </p>
        </>
      ),
    },
    {
      id: 'refund-policy',
      title: 'Refund Policy',
      content: (
        <ul>
          <li>
            <strong>14-day free trial:</strong> paid plans start with a 14-day free trial. Cancel before it ends and you are not charged.
          </li>
          <li>
            <strong>30-day money-back guarantee:</strong> new subscriptions can be refunded in full within 30 days of the first payment.
          </li>
          <li>
            <strong>After 30 days:</strong> refund requests are considered case by case.
          </li>
          <li>
            <strong>Monthly plans:</strong> generally not refunded for partial months.
          </li>
          <li>
            <strong>Annual plans:</strong> may receive a prorated refund for the unused period, at our discretion.
          </li>
          <li>
            <strong>Renewal:</strong> subscriptions renew automatically unless you cancel before the renewal date, in your account settings
            or by contacting support.
          </li>
        </ul>
      ),
    },
    {
      id: 'subscription-and-billing',
      title: 'Subscription and Billing',
      content: (
        <>
          <p>
            Subscriptions are billed in advance, monthly or annually, through our payment provider, which acts as the merchant of record and
            handles your payment details. Prices are shown in US dollars and may include or add applicable taxes.
          </p>
          <p>
            Each plan includes the features and credits listed on our pricing page. Unused credits do not carry over to the next billing
            period. We will give you at least 30 days’ notice of any price change, which applies from your next renewal. If a payment fails,
            we may limit your account to the Free plan until it is settled.
          </p>
        </>
      ),
    },
    {
      id: 'platform-information',
      title: 'Platform Information',
      content: (
        <>
          <p>
            The Service consists of a web dashboard, browser extensions, desktop applications and a public API. We continuously improve it
            and may add, change or retire features. When a change materially reduces what a paid plan offers, we will tell you in advance.
          </p>
          <p>
            We aim for high availability but do not promise uninterrupted service; planned maintenance is announced when possible. Some
            features depend on third parties (for example browser stores and AI providers) whose terms also apply.
          </p>
        </>
      ),
    },
    {
      id: 'changes-to-terms',
      title: 'Changes to Terms',
      content: (
        <p>
          We may update these Terms from time to time. The date at the top of this page shows the latest version. For material changes we
          will notify you by e-mail or in the dashboard at least 14 days before they take effect. Continuing to use the Service after that
          means you accept the new Terms.
        </p>
      ),
    },
    {
      id: 'contact-information',
      title: 'Contact Information',
      content: (
        <p>
          Questions about these Terms? Write to <a href={`mailto:${site.supportEmail}`}>{site.supportEmail}</a> or use our{' '}
          <Link to="/contact">contact form</Link>. Support hours: {site.supportHours}.
        </p>
      ),
    },
  ]
}
