import type * as React from 'react'
import { Link } from 'react-router'

export interface FaqItem {
  question: string
  answer: React.ReactNode
}

export const CONTACT_FAQ: FaqItem[] = [
  {
    question: 'What is Aether?',
    answer:
      'Aether is an AI-powered automation platform. Its browser extension and desktop apps handle repetitive work such as data entry, form submission and site navigation, and one dashboard lets you manage and monitor every task.',
  },
  {
    question: 'Is there a free trial?',
    answer:
      'Yes. Every paid plan starts with a 14-day free trial, so you can try Aether on your own work before you pay. Cancel during the trial and you are not charged.',
  },
  {
    question: 'What is your refund policy?',
    answer: (
      <>
        New subscriptions come with a 30-day money-back guarantee: if Aether is not right for you, contact us within 30 days of your first
        payment and you get a full refund. The details are in our{' '}
        <Link to="/terms#refund-policy" className="font-medium text-primary underline underline-offset-4 hover:no-underline">
          Terms of Service
        </Link>
        .
      </>
    ),
  },
  {
    question: 'Is my data secure?',
    answer: (
      <>
        Yes. Everything travels over encrypted connections, passwords are stored only as strong one-way hashes, and access to your data is
        limited to what is needed to run your automations. We never sell your data. Read our{' '}
        <Link to="/privacy" className="font-medium text-primary underline underline-offset-4 hover:no-underline">
          Privacy Policy
        </Link>{' '}
        for the details.
      </>
    ),
  },
]
