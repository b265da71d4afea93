/**
 * demoConversations — the user side of the demo: 71 multi-turn conversations a support desk might see.
 *
 * Each user message carries the skill a careful human would have routed it to (`expected`), so the demo can
 * tell a routing that went wrong from one that went right, and mark the wrong ones the way a reviewer would.
 * The messages are written to be ordinary: follow-ups that only make sense in context ("and how long will
 * that take?"), topic changes mid-conversation, vague complaints, chit-chat, and questions that really do sit
 * between two skills. Nothing here is tuned to a score.
 * Data only. No I/O.
 */

/** One user message and the skill a human reviewer would have picked for it. */
export interface DemoTurn {
  readonly text: string;
  readonly expected: string;
}

/** One conversation: which router (entry point) it came in through, and its user turns in order. */
export interface DemoConversation {
  /** Recorded as `gen_ai.conversation.id`. */
  readonly id: string;
  /** The router name (see `DEMO_ROUTERS`). */
  readonly router: string;
  readonly turns: readonly DemoTurn[];
}

type T = readonly [expected: string, text: string];

const counters = new Map<string, number>();
const PREFIX: Record<string, string> = { 'support-desk': 'web', 'billing-desk': 'bill', triage: 'app' };

function conversation(router: string, ...turns: readonly T[]): DemoConversation {
  const n = (counters.get(router) ?? 0) + 1;
  counters.set(router, n);
  const id = `${PREFIX[router] ?? router}-${String(n).padStart(3, '0')}`;
  return { id, router, turns: turns.map(([expected, text]) => ({ text, expected })) };
}

const web = (...turns: readonly T[]): DemoConversation => conversation('support-desk', ...turns);
const bill = (...turns: readonly T[]): DemoConversation => conversation('billing-desk', ...turns);
const app = (...turns: readonly T[]): DemoConversation => conversation('triage', ...turns);

/** Every conversation of the demo, in the order the agent handles them. */
export const DEMO_CONVERSATIONS: readonly DemoConversation[] = [
  // — web chat (support-desk, embedding scorer) —
  web(
    ['small-talk', 'Hi there'],
    ['order-status', 'I ordered a lamp ten days ago and it still has not arrived'],
    ['order-status', 'Do you have a tracking number for it?'],
    ['small-talk', 'Great, thanks!'],
  ),
  web(
    ['returns', 'The jeans I bought are too small, can I send them back?'],
    ['returns', 'Do I need to print the label myself?'],
    ['refunds', 'And when do I get my money back?'],
  ),
  web(
    ['password-reset', 'I forgot my password and the reset email never came'],
    ['password-reset', 'I checked the spam folder too'],
    ['account-access', 'Now it says my account is locked'],
    ['account-access', 'How long until I can try again?'],
  ),
  web(
    ['tech-support', 'The app crashes every time I open my basket'],
    ['tech-support', 'I am on the latest version'],
    ['tech-support', 'Reinstalling did not help either'],
    ['complaints', 'Honestly this is the third time this month, I want to complain'],
  ),
  web(
    ['cancellations', 'I need to cancel my order, I bought the wrong model'],
    ['refunds', 'Will the refund go back to my card?'],
    ['small-talk', 'Perfect, thank you'],
  ),
  web(
    ['product-info', 'Is the rain jacket fully waterproof or just water resistant?'],
    ['product-info', 'Does it come in green?'],
    ['product-info', 'What size would you recommend if I am usually a medium?'],
    ['shipping', 'How quickly can you deliver it to Dublin?'],
  ),
  web(
    ['billing', 'There are two charges from you on my credit card statement'],
    ['billing', 'Both are for the same amount, 49.90'],
    ['refunds', 'Can you refund one of them?'],
    ['small-talk', 'Thanks for sorting that out'],
  ),
  web(
    ['shipping', 'Do you ship to Norway?'],
    ['shipping', 'What does express shipping cost?'],
    ['small-talk', 'OK cool'],
  ),
  web(
    ['account-access', 'I cannot sign in, it keeps asking for a verification code'],
    ['account-access', 'The code never arrives on my phone'],
    ['account-access', 'I changed my number last month'],
  ),
  web(
    ['returns', 'The mug arrived broken'],
    ['returns', 'Can I get a replacement instead of sending it back?'],
    ['refunds', 'Actually just give me my money back'],
    ['refunds', 'How many days will that take?'],
  ),
  web(
    ['complaints', 'Your courier left my parcel in the rain and everything is soaked'],
    ['complaints', 'I want to speak to someone in charge'],
    ['returns', 'Fine, how do I send the ruined things back?'],
  ),
  web(
    ['small-talk', 'Good morning!'],
    ['cancellations', 'I would like to stop my coffee subscription'],
    ['cancellations', 'Can I pause it instead of cancelling?'],
    ['cancellations', 'Pause it for two months please'],
    ['small-talk', 'Lovely, bye'],
  ),
  web(
    ['order-status', 'Where is my order 4471?'],
    ['shipping', 'Can you change the delivery address to my office?'],
    ['order-status', 'When is it expected now?'],
  ),
  web(['password-reset', 'How do I change my password?'], ['password-reset', 'The link says it has expired']),
  web(
    ['tech-support', 'The website shows an error 500 at checkout'],
    ['billing', 'Was my card charged anyway?'],
    ['tech-support', 'Should I try another browser?'],
  ),
  web(
    ['product-info', 'Is this phone case compatible with the Pixel 9?'],
    ['product-info', 'And is there a warranty?'],
    ['small-talk', 'Thanks, that helps'],
  ),
  web(
    ['refunds', 'I returned a coat three weeks ago and still have no refund'],
    ['refunds', 'The tracking says you received it on the 3rd'],
    ['complaints', 'This is ridiculous, I want this escalated'],
    ['complaints', 'Please have a manager call me'],
  ),
  web(
    ['small-talk', 'Are you a robot?'],
    ['small-talk', 'Haha ok. What is the weather like where you are?'],
    ['product-info', 'Anyway, do you sell umbrellas?'],
  ),
  web(
    ['cancellations', 'Cancel the blender I ordered an hour ago'],
    ['order-status', 'Has it shipped already?'],
    ['returns', 'If it has, can I just refuse the parcel and return it?'],
  ),
  web(
    ['billing', 'Why is my bill higher this month?'],
    ['billing', 'I did not upgrade anything'],
    ['cancellations', 'Then cancel the premium plan, I never asked for it'],
    ['refunds', 'And refund the difference please'],
  ),
  web(
    ['account-access', 'Someone else logged into my account'],
    ['password-reset', 'How do I reset my password right now?'],
    ['account-access', 'Can you sign out all my devices?'],
  ),
  web(
    ['shipping', 'Is delivery free if I spend over 50?'],
    ['product-info', 'Is the large rug in stock?'],
    ['shipping', 'Can it come by express?'],
    ['small-talk', 'Thanks!'],
  ),
  web(
    ['tech-support', 'I cannot upload a photo to my review'],
    ['tech-support', 'It just spins forever'],
    ['tech-support', 'It is a jpg, about 3 MB'],
  ),
  web(
    ['order-status', 'My parcel shows delivered but it is not here'],
    ['order-status', 'I checked with my neighbours'],
    ['complaints', 'This is not good enough, who can I complain to?'],
    ['refunds', 'I just want my money back at this point'],
    ['small-talk', 'Ok, thank you'],
  ),
  web(['returns', 'What is the return window for sale items?'], ['returns', 'And do I pay the postage?']),
  web(
    ['small-talk', 'hello?'],
    ['small-talk', 'anyone there'],
    ['billing', 'I need an invoice with my company name on it'],
    ['billing', 'The VAT number should be on it too'],
  ),
  web(
    ['product-info', 'Which of your headphones have noise cancelling?'],
    ['product-info', 'Do they work with an iPhone?'],
    ['order-status', 'Also my last order, is it on the way?'],
  ),
  web(
    ['account-access', 'I get "too many attempts" when I log in'],
    ['password-reset', 'Maybe I should just reset the password'],
    ['password-reset', 'Ok the email came, thanks'],
  ),
  web(
    ['cancellations', 'How do I end my membership?'],
    ['refunds', 'Do I get anything back for the months I paid in advance?'],
    ['complaints', 'That is unfair, I want to complain about that policy'],
  ),
  web(
    ['tech-support', 'The app logs me out every few minutes'],
    ['account-access', 'Is something wrong with my account?'],
    ['tech-support', 'It started after the update yesterday'],
    ['small-talk', 'OK, will wait for the fix, cheers'],
  ),
  web(
    ['account-access', "I can't get into my account"],
    ['password-reset', 'It says the password is wrong but I am sure it is right'],
    ['password-reset', 'Can you send me a reset link?'],
    ['small-talk', 'Thanks, that worked'],
  ),
  web(
    ['account-access', 'My login stopped working after I changed my email'],
    ['account-access', 'I still have access to the old email'],
    ['password-reset', 'Should I reset my password then?'],
  ),
  web(
    ['password-reset', 'The reset password page says my link is invalid'],
    ['account-access', 'Now my account is locked too'],
    ['complaints', 'This is the worst sign in experience ever'],
  ),
  web(
    ['account-access', 'I keep getting logged out and cannot log back in'],
    ['tech-support', 'It happens in the app, the website is fine'],
    ['tech-support', 'I am on version 5.2'],
  ),
  // — billing portal (billing-desk, keyword scorer) —
  bill(
    ['billing', 'Why was I charged twice for order 8812?'],
    ['refunds', 'Please refund the second charge'],
    ['refunds', 'How long will the refund take?'],
  ),
  bill(
    ['billing', 'Can I pay my invoice by bank transfer?'],
    ['billing', 'Where do I find the invoice number?'],
    ['small-talk', 'Thank you very much'],
  ),
  bill(
    ['cancellations', 'Cancel my subscription from next month'],
    ['refunds', 'Will I get money back for this month?'],
    ['cancellations', 'Then cancel it right away instead'],
  ),
  bill(
    ['returns', 'I want to return the kettle, it leaks'],
    ['refunds', 'Is the refund the full price or minus shipping?'],
    ['returns', 'Send me the return label please'],
    ['small-talk', 'Thanks, bye'],
  ),
  bill(
    ['billing', 'My card expired, how do I add a new one?'],
    ['billing', 'Will the next payment use the new card?'],
  ),
  bill(
    ['refunds', 'I cancelled order 5521 but the money is still gone from my account'],
    ['refunds', 'It has been ten days'],
    ['complaints', 'I want to escalate this, it is unacceptable'],
  ),
  bill(
    ['small-talk', 'Hi'],
    ['order-status', 'Where is the order I paid for last week?'],
    ['order-status', 'Can you send me the tracking link?'],
  ),
  bill(
    ['returns', 'Can I exchange the dress for a bigger size?'],
    ['refunds', 'If not, I would like a refund to my card'],
    ['refunds', 'Or as store credit, whichever is faster'],
  ),
  bill(
    ['billing', 'There is a charge I do not recognise on my statement'],
    ['billing', 'It says RS*STORE 19.99'],
    ['cancellations', 'Oh that is the subscription, please stop it'],
    ['refunds', 'Can you give this month back?'],
  ),
  bill(
    ['cancellations', 'I want to cancel the order I placed today'],
    ['refunds', 'And get my money back'],
    ['small-talk', 'Great, thanks'],
  ),
  bill(
    ['complaints', 'Your billing team charged me the wrong price'],
    ['billing', 'The price on the site was 30, I paid 45'],
    ['refunds', 'I want the difference refunded'],
    ['complaints', 'Let me talk to a manager if you cannot do it'],
  ),
  bill(
    ['returns', 'Return policy for opened items?'],
    ['returns', 'The box is opened but the item is unused'],
  ),
  bill(['billing', 'Download receipt for March'], ['billing', 'And for April'], ['small-talk', 'thanks']),
  bill(
    ['refunds', 'Was my refund sent?'],
    ['refunds', 'I cannot see it on my card'],
    ['billing', 'Is it on the next statement maybe?'],
  ),
  bill(
    ['cancellations', 'Stop charging me for the membership'],
    ['cancellations', 'I cancelled it in the app but it did not work'],
    ['billing', 'You charged me again yesterday'],
    ['refunds', 'Refund that charge please'],
    ['complaints', 'And I want to complain about this'],
  ),
  bill(
    ['order-status', 'Is my order delayed?'],
    ['cancellations', 'If it is late I want to cancel'],
    ['refunds', 'Then refund it'],
  ),
  bill(
    ['small-talk', 'Good afternoon'],
    ['billing', 'I have a question about my bill'],
    ['billing', 'What is the service fee on it?'],
  ),
  bill(
    ['returns', 'The order came with the wrong item'],
    ['returns', 'I ordered blue and got red'],
    ['returns', 'Do I send it back with the same box?'],
    ['small-talk', 'Appreciate it'],
  ),
  bill(
    ['refunds', 'I sent the parcel back two weeks ago, where is my refund?'],
    ['returns', 'Did you even receive the return?'],
    ['refunds', 'Then please refund it today'],
  ),
  bill(
    ['returns', 'Can I return a gift without a receipt?'],
    ['refunds', 'Will the refund go to the person who paid?'],
    ['small-talk', 'Ok thanks for explaining'],
  ),
  // — mobile app (triage, classifier stand-in) —
  app(
    ['order-status', 'where is my package'],
    ['order-status', 'it said out for delivery yesterday'],
    ['shipping', 'can the courier leave it with a neighbour'],
  ),
  app(
    ['account-access', 'cant log in'],
    ['password-reset', 'forgot password'],
    ['password-reset', 'no reset email'],
    ['small-talk', 'ok got it thx'],
  ),
  app(
    ['tech-support', 'app crashes on startup'],
    ['tech-support', 'android 14'],
    ['tech-support', 'still crashing after update'],
  ),
  app(
    ['returns', 'want to return shoes'],
    ['returns', 'wrong size'],
    ['refunds', 'refund to my card please'],
  ),
  app(['cancellations', 'cancel order'], ['order-status', 'has it shipped'], ['small-talk', 'thanks']),
  app(
    ['product-info', 'is this stroller compatible with a car seat'],
    ['product-info', 'what colour options'],
    ['shipping', 'how much for delivery'],
  ),
  app(
    ['billing', 'charged twice'],
    ['refunds', 'give me my money back'],
    ['complaints', 'this is terrible service'],
    ['complaints', 'i want a human'],
  ),
  app(['small-talk', 'hi'], ['small-talk', 'how are you'], ['shipping', 'do you deliver on weekends']),
  app(
    ['account-access', 'my account got locked'],
    ['account-access', 'verification code not working'],
    ['tech-support', 'the code screen just freezes'],
  ),
  app(
    ['order-status', 'parcel late'],
    ['complaints', 'second time this happens'],
    ['cancellations', 'just cancel it'],
    ['refunds', 'money back please'],
  ),
  app(['product-info', 'does the watch have gps'], ['product-info', 'battery life?']),
  app(
    ['password-reset', 'reset link expired'],
    ['password-reset', 'send a new one'],
    ['account-access', 'still cant get in'],
  ),
  app(
    ['returns', 'item damaged'],
    ['returns', 'the screen has a crack'],
    ['returns', 'how do i send it back'],
    ['small-talk', 'cheers'],
  ),
  app(
    ['billing', 'update payment card'],
    ['tech-support', 'the save button does nothing'],
    ['tech-support', 'tried twice'],
  ),
  app(['cancellations', 'pause my subscription'], ['billing', 'will i still be billed this month']),
  app(
    ['small-talk', 'you are useless'],
    ['complaints', 'i want to talk to a real person'],
    ['complaints', 'escalate please'],
  ),
  app(
    ['password-reset', 'forgot my login password'],
    ['account-access', 'locked out now'],
    ['small-talk', 'thx'],
  ),
];
