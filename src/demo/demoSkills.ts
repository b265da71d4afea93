/**
 * demoSkills — the skill graph of the demo's support-desk agent: twelve skills, each with an intent sentence,
 * a few keywords and example phrasings.
 *
 * Written the way real skill graphs are written: by different people, with vocabulary that overlaps where the
 * business overlaps (refunds, returns and cancellations all talk about orders and money; account access and
 * password reset both talk about logging in). Those overlaps are what make the demo's near-ties — nothing in
 * the demo plants a score. The three routers see different slices of this graph (`DEMO_ROUTERS`).
 * Data only. No I/O.
 */
import type { RoutingPolicy } from '../policy/types.js';

/** One skill of the demo graph: what it is for, in the words a skill author would use. */
export interface DemoSkill {
  /** Stable id, as the router ranks it. */
  readonly id: string;
  /** One sentence: what the skill handles (the description an entry scorer reads). */
  readonly intent: string;
  /** Hand-picked keywords the skill author declared. */
  readonly keywords: readonly string[];
  /** Example user phrasings. */
  readonly phrasings: readonly string[];
}

/** The twelve skills of the support desk, in declaration order (ties keep this order). */
export const DEMO_SKILLS: readonly DemoSkill[] = [
  {
    id: 'billing',
    intent: 'Explain charges on an invoice, update the payment method and answer questions about the bill.',
    keywords: ['bill', 'invoice', 'charge', 'charged', 'payment', 'card', 'price', 'statement', 'receipt'],
    phrasings: [
      'Why was I charged twice this month?',
      'I need a copy of my invoice',
      'How do I update my credit card?',
      'There is a charge on my statement I do not recognise',
      'Can I change the payment method on my account?',
      'My bill is higher than usual',
      'Where can I download a receipt for my payment?',
    ],
  },
  {
    id: 'refunds',
    intent: 'Issue refunds and report the status of a refund for a returned or cancelled order.',
    keywords: ['refund', 'money', 'back', 'reimburse', 'credit', 'refunded'],
    phrasings: [
      'I want a refund',
      'When will I get my money back?',
      'Has my refund been processed yet?',
      'I returned the item but was not refunded',
      'Can you refund the order I cancelled?',
      'How long does a refund take to reach my card?',
      'I was promised a credit to my account',
    ],
  },
  {
    id: 'returns',
    intent:
      'Start a return, send a return label and explain the return policy for items a customer sends back.',
    keywords: ['return', 'label', 'send', 'exchange', 'wrong', 'size', 'policy', 'damaged'],
    phrasings: [
      'I want to return an item',
      'How do I send this back?',
      'Can I get a return label?',
      'The shoes are the wrong size, can I exchange them?',
      'What is your return policy?',
      'The item arrived damaged and I want to return it',
      'Do I have to pay for return shipping?',
    ],
  },
  {
    id: 'cancellations',
    intent: 'Cancel an order before it ships, or cancel or pause a subscription.',
    keywords: ['cancel', 'cancellation', 'subscription', 'stop', 'pause', 'membership'],
    phrasings: [
      'I want to cancel my order',
      'Please cancel my subscription',
      'How do I stop the monthly membership?',
      'Can I cancel an order that has not shipped?',
      'I want to pause my subscription for a month',
      'Cancel the order I placed this morning',
    ],
  },
  {
    id: 'shipping',
    intent:
      'Answer questions about delivery options, shipping costs, delivery times and changing the address.',
    keywords: ['shipping', 'delivery', 'deliver', 'address', 'express', 'courier', 'ship', 'international'],
    phrasings: [
      'How much is shipping?',
      'Do you deliver to Canada?',
      'Can I change the delivery address?',
      'How long does express delivery take?',
      'Which courier do you use?',
      'Do you offer free shipping on large orders?',
    ],
  },
  {
    id: 'order-status',
    intent: 'Look up where an order is, its tracking number and when it will arrive.',
    keywords: ['order', 'tracking', 'track', 'arrive', 'where', 'package', 'parcel', 'late', 'status'],
    phrasings: [
      'Where is my order?',
      'My package has not arrived',
      'Can you give me the tracking number?',
      'When will my parcel arrive?',
      'The order status has not changed for a week',
      'My delivery is late',
    ],
  },
  {
    id: 'account-access',
    intent: 'Help a customer who cannot log in: locked accounts, two-factor codes and sign-in errors.',
    keywords: ['login', 'log', 'sign', 'locked', 'account', 'access', 'code', 'verification', 'two-factor'],
    phrasings: [
      'I cannot log in to my account',
      'My account is locked',
      'I am not getting the verification code',
      'Sign in keeps failing',
      'I lost access to my account after changing phones',
      'The two-factor code does not work',
    ],
  },
  {
    id: 'password-reset',
    intent: 'Reset a forgotten password and resend the password reset link.',
    keywords: ['password', 'reset', 'forgot', 'forgotten', 'link', 'email'],
    phrasings: [
      'I forgot my password',
      'How do I reset my password?',
      'The password reset link does not work',
      'I did not get the reset email',
      'Can you send me a new password link?',
      'My password is not accepted when I log in',
    ],
  },
  {
    id: 'tech-support',
    intent: 'Troubleshoot the app and the website: crashes, error messages, pages that do not load.',
    keywords: ['app', 'crash', 'crashes', 'error', 'bug', 'website', 'load', 'broken', 'update', 'screen'],
    phrasings: [
      'The app keeps crashing',
      'I get an error when I open the website',
      'The checkout page does not load',
      'The app is stuck on a blank screen',
      'Since the last update nothing works',
      'I found a bug in the app',
    ],
  },
  {
    id: 'product-info',
    intent: 'Answer questions about products: features, sizes, compatibility, materials and availability.',
    keywords: [
      'product',
      'size',
      'compatible',
      'stock',
      'material',
      'colour',
      'color',
      'features',
      'warranty',
    ],
    phrasings: [
      'Is this jacket waterproof?',
      'Is the charger compatible with my phone?',
      'When will the blue one be back in stock?',
      'What size should I order?',
      'What material is the sofa made of?',
      'Does the blender come with a warranty?',
    ],
  },
  {
    id: 'complaints',
    intent:
      'Handle complaints and escalate to a human manager when the customer is unhappy with the service.',
    keywords: ['complaint', 'manager', 'unhappy', 'terrible', 'escalate', 'human', 'agent', 'unacceptable'],
    phrasings: [
      'I want to make a complaint',
      'Let me speak to a manager',
      'This service is terrible',
      'I have been waiting for weeks, this is unacceptable',
      'Can I talk to a human agent?',
      'Please escalate this',
    ],
  },
  {
    id: 'small-talk',
    intent: 'Greetings, thanks, goodbyes and friendly chit-chat that needs no action.',
    keywords: ['hello', 'hi', 'thanks', 'thank', 'bye', 'goodbye', 'great', 'morning', 'how'],
    phrasings: [
      'Hello there',
      'Thanks a lot!',
      'Good morning',
      'How are you today?',
      'Bye, have a nice day',
      'You are great, thank you',
    ],
  },
];

/** A router of the demo: which slice of the graph it ranks, with which scorer, under which policy. */
export interface DemoRouter {
  /** The router name recorded on every decision (`agentfootprint.routing.router`). */
  readonly name: string;
  /** The channel it serves, for the reader of the demo. */
  readonly channel: string;
  /** The scorer it ranks with (see demoScorers). */
  readonly scorer: 'keyword' | 'embedding' | 'llm-classifier';
  /** The skill ids it ranks, in declaration order. */
  readonly skills: readonly string[];
  /** The thresholds declared with the scorer (unset ones take the contract's defaults). */
  readonly policy: Partial<RoutingPolicy>;
}

const ALL_SKILL_IDS = DEMO_SKILLS.map((s) => s.id);

/**
 * The three entry points of the agent. The web chat ranks the whole graph with the embedding scorer (which
 * declares no floor, as embedding scorers usually do); the billing portal ranks its money-related slice with
 * the keyword scorer; the mobile app asks the classifier stand-in for one pick.
 *
 * Margins are declared per router, as teams do once they have looked at their scorer's numbers: cosines of
 * short texts live in a narrow band (the pairwise gap `tanh(Δ/2)` of two cosines rarely reaches the default
 * 0.15), so the web desk judges trigram cosines with 0.02 and the billing desk keyword cosines with 0.05. The
 * classifier is categorical — its picks are decisive whatever the margin — so the mobile app keeps the default.
 * `routescope replay --margin 0.15` on the demo's traces shows what the defaults would have done.
 */
export const DEMO_ROUTERS: readonly DemoRouter[] = [
  {
    name: 'support-desk',
    channel: 'web chat',
    scorer: 'embedding',
    skills: ALL_SKILL_IDS,
    policy: { nearTieMargin: 0.02 },
  },
  {
    name: 'billing-desk',
    channel: 'billing portal',
    scorer: 'keyword',
    skills: ['billing', 'refunds', 'returns', 'cancellations', 'order-status', 'complaints', 'small-talk'],
    policy: { nearTieMargin: 0.05 },
  },
  { name: 'triage', channel: 'mobile app', scorer: 'llm-classifier', skills: ALL_SKILL_IDS, policy: {} },
];
