/**
 * compareWithEvent — where the verdict rebuilt from a `turn_routed` event's numbers and what the event says
 * happened disagree, and the verdict that happened.
 *
 * The event carries no verdict kind: what happened is read from `by`, `to`, `offered` and the decider's pick
 * (verdictThatHappened), and each disagreement with the rebuilt verdict is one plain line (compareWithEvent).
 * Neither side is "fixed". Pure.
 */
import type { Mutable } from './readEventFields.js';
import { numbersAgree } from './routingPolicy.js';
import type { TurnRoutedReading } from './turnRoutedEvent.js';
import type { IntentScore, Tier2Verdict, TurnRoute } from './types.js';

/** The numbers the event itself reports, kept as they are in the verdict that happened. */
export type Numbers = Pick<Tier2Verdict, 'ranked' | 'runnerUp' | 'decisive'>;

/** Did a menu follow tier 2 (tier 3 ran), judging by what the event says happened? */
function menuFollowed(turn: TurnRoute, decider: TurnRoutedReading['decider']): boolean {
  return (
    turn.by === 'menu' ||
    turn.by === 'none' ||
    turn.by === 'decider' ||
    (turn.by === 'continuity' && decider !== undefined)
  );
}

/**
 * The tier-2 verdict the event says happened: `intent` is a move to `to`; `continuity` with no decider is a
 * stay; a menu that followed is `unmatched` when that is what the numbers give, else a menu of what the event
 * offered. The event's own ranking, runner-up and decisive flag are kept as they are.
 */
export function verdictThatHappened(
  turn: TurnRoute,
  decider: TurnRoutedReading['decider'],
  rebuilt: Tier2Verdict,
  numbers: Numbers,
): Tier2Verdict {
  // Literals with the numbers named, not spread: this runs once per routed turn.
  const { ranked, decisive } = numbers;
  let verdict: Tier2Verdict;
  if (turn.by === 'intent' && turn.to !== undefined)
    verdict = { kind: 'move', to: turn.to, ranked, decisive };
  else if (turn.by === 'continuity' && decider === undefined) verdict = { kind: 'stay', ranked, decisive };
  else if (menuFollowed(turn, decider)) {
    verdict =
      rebuilt.kind === 'unmatched'
        ? { kind: 'unmatched', ranked, decisive }
        : {
            kind: 'menu',
            offered: turn.offered ?? (rebuilt.kind === 'menu' ? rebuilt.offered : []),
            ranked,
            decisive,
          };
  } else {
    // `intent` with no `to`: nothing says where it moved; keep the rebuilt kind, which the differences flag.
    return { ...rebuilt, ...numbers } as Tier2Verdict;
  }
  if (numbers.runnerUp !== undefined) (verdict as Mutable<Tier2Verdict>).runnerUp = numbers.runnerUp;
  return verdict;
}

function list(ids: readonly string[] | undefined): string {
  return ids === undefined ? 'none' : `[${ids.join(', ')}]`;
}

function describeTurn(turn: TurnRoute, decider: TurnRoutedReading['decider']): string {
  const parts = [`by ${turn.by}`];
  if (turn.to !== undefined) parts.push(`to ${turn.to}`);
  if (decider?.picked !== undefined) parts.push(`decider picked ${decider.picked}`);
  return parts.join(', ');
}

/** Where the rebuilt verdict and the event disagree, one plain line each. */
export function compareWithEvent(
  rebuilt: Tier2Verdict,
  turn: TurnRoute,
  decider: TurnRoutedReading['decider'],
  runnerUp: { id: string; gap: number } | undefined,
  decisive: boolean,
  scores: readonly IntentScore[],
): string[] {
  const out: string[] = [];
  // The event is described only when there is a difference to say: agreement is the common case.
  switch (rebuilt.kind) {
    case 'move':
      if (turn.by !== 'intent' || turn.to !== rebuilt.to)
        out.push(`verdict: event ${describeTurn(turn, decider)}, rebuilt move to ${rebuilt.to}`);
      break;
    case 'stay':
      if (
        turn.by !== 'continuity' ||
        decider !== undefined ||
        (turn.to !== undefined && turn.to !== turn.from)
      ) {
        out.push(`verdict: event ${describeTurn(turn, decider)}, rebuilt stay`);
      }
      break;
    case 'menu':
      if (!menuFollowed(turn, decider))
        out.push(`verdict: event ${describeTurn(turn, decider)}, rebuilt menu ${list(rebuilt.offered)}`);
      else if (turn.offered === undefined || !sameList(turn.offered, rebuilt.offered)) {
        out.push(`menu: event offered ${list(turn.offered)}, rebuilt ${list(rebuilt.offered)}`);
      }
      break;
    case 'unmatched':
      if (!menuFollowed(turn, decider))
        out.push(`verdict: event ${describeTurn(turn, decider)}, rebuilt unmatched`);
      else if (turn.offered !== undefined && !scores.every((c) => turn.offered!.includes(c.id))) {
        out.push(`menu: event offered ${list(turn.offered)}, rebuilt unmatched (every entry)`);
      }
      break;
  }
  if (decisive !== rebuilt.decisive) out.push(`decisive: event ${decisive}, rebuilt ${rebuilt.decisive}`);
  const r = rebuilt.runnerUp;
  if (runnerUp === undefined && r !== undefined) out.push(`runner-up: event none, rebuilt ${r.id}`);
  else if (runnerUp !== undefined && r === undefined)
    out.push(`runner-up: event ${runnerUp.id}, rebuilt none`);
  else if (runnerUp !== undefined && r !== undefined) {
    if (runnerUp.id !== r.id) out.push(`runner-up: event ${runnerUp.id}, rebuilt ${r.id}`);
    else if (!numbersAgree(runnerUp.gap, r.gap))
      out.push(`gap: event ${String(runnerUp.gap)}, rebuilt ${String(r.gap)}`);
  }
  return out;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
