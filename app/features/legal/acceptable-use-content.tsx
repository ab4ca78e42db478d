import { Link } from 'react-router'
import type { SiteConfig } from '#common/site.ts'
import type { LegalSection } from './legal-page.tsx'

export const ACCEPTABLE_USE_SUMMARY =
  'Automation is powerful. This policy sets out what you may and may not do with Aether, so the Service stays safe, lawful and reliable for everyone.'

export function acceptableUseSections(site: SiteConfig): LegalSection[] {
  return [
    {
      id: 'prohibited-activities',
      title: 'Prohibited Activities',
      content: (
        <>
          <p>You may not use the Service, or automations built with it, to:</p>
          <ul>
            <li>break any law or regulation, or infringe the rights of others, including intellectual property and privacy rights;</li>
            <li>
              access accounts, systems or data you are not authorised to access, or get around security measures, paywalls or CAPTCHAs;
            </li>
            <li>send spam, run bulk unsolicited messaging or create fake accounts, reviews or engagement;</li>
            <li>collect personal data without a lawful basis, or scrape websites in breach of their terms or applicable law;</li>
            <li>overload, disrupt or attack any website or service, including ours, for example with denial-of-service traffic;</li>
            <li>distribute malware or run phishing, fraud or other deceptive schemes;</li>
            <li>resell or share access to the Service, or reverse engineer it, except where the law allows.</li>
          </ul>
        </>
      ),
    },
    {
      id: 'content-standards',
      title: 'Content Standards',
      content: (
        <>
          <p>Anything you upload, generate or process with the Service must not:</p>
          <ul>
            <li>be illegal, defamatory, harassing, hateful or threatening;</li>
            <li>sexually exploit or endanger minors in any way;</li>
            <li>promote violence, terrorism or self-harm;</li>
            <li>contain other people’s confidential or personal information without permission;</li>
            <li>mislead people, for example by impersonating a person or organisation.</li>
          </ul>
        </>
      ),
    },
    {
      id: 'monitoring-and-enforcement',
      title: 'Monitoring and Enforcement',
      content: (
        <>
          <p>
            We do not read your automations or content as a matter of routine. We do monitor usage patterns, such as request volumes and
            error rates, to protect the Service, and we investigate when we receive a report or detect abuse.
          </p>
          <p>
            If we find a breach of this policy we may warn you, remove content, limit or suspend automations, or close your account,
            depending on how serious it is. Where the law requires it, we report illegal activity to the authorities. A breach of this
            policy is also a breach of our <Link to="/terms">Terms of Service</Link>.
          </p>
        </>
      ),
    },
    {
      id: 'reporting-violations',
      title: 'Reporting Violations',
      content: (
        <p>
          If you believe someone is using Aether in breach of this policy, e-mail{' '}
          <a href={`mailto:${site.supportEmail}`}>{site.supportEmail}</a> with as much detail as you can: what happened, when, and any links
          or screenshots. We review every report and treat the reporter’s identity confidentially.
        </p>
      ),
    },
    {
      id: 'changes-to-this-policy',
      title: 'Changes to This Policy',
      content: (
        <p>
          We may update this policy as the Service and the law evolve. The date at the top of the page shows the latest version. How we
          handle personal data is described in our <Link to="/privacy">Privacy Policy</Link>.
        </p>
      ),
    },
    {
      id: 'contact-us',
      title: 'Contact Us',
      content: (
        <p>
          Questions about this policy? E-mail <a href={`mailto:${site.supportEmail}`}>{site.supportEmail}</a> or use our{' '}
          <Link to="/contact">contact form</Link>.
        </p>
      ),
    },
  ]
}
