import { formatCurrency } from "./format";

/** The clone's `budget` (contract silent; DESIGN.md): the amount is the DAILY budget; a lifetime budget is carried over unchanged. */
export interface SourceBudgets {
  dailyBudget?: number;
  lifetimeBudget?: number;
}

const perDay = (amount: number, currency: string) => `${formatCurrency(amount, currency)} per day`;
const inTotal = (amount: number, currency: string) => `${formatCurrency(amount, currency)} in total`;

/** The lifetime budget the clone keeps, in words: 0 is "no lifetime budget", unknown is said so. */
function lifetimeWords(source: SourceBudgets | undefined, currency: string): string {
  if (source?.lifetimeBudget === undefined) return "the source's lifetime budget (not known before cloning)";
  return source.lifetimeBudget > 0 ? `a lifetime budget of ${inTotal(source.lifetimeBudget, currency)}` : "no lifetime budget";
}

/** Which budget the amount replaces and which is carried over, for the form's hint and the review. */
export function budgetExplanation(amount: number | undefined, currency: string, source?: SourceBudgets): string {
  const replaced = source?.dailyBudget === undefined ? "the source's daily budget" : `the source's ${perDay(source.dailyBudget, currency)}`;
  const lifetime = lifetimeWords(source, currency);
  if (amount === undefined) return `The clone keeps ${replaced} and ${lifetime}.`;
  return `${perDay(amount, currency)} becomes the clone's daily budget, replacing ${replaced}. It keeps ${lifetime}, carried over from the source.`;
}

/** The ACTIVE warning: what an active clone may spend, daily and in total. */
export function activeSpendWarning(amount: number | undefined, currency: string, source?: SourceBudgets): string {
  const daily =
    amount !== undefined
      ? perDay(amount, currency)
      : source?.dailyBudget !== undefined
        ? perDay(source.dailyBudget, currency)
        : "its daily budget";
  return `An ACTIVE clone starts spending up to ${daily}, within ${lifetimeWords(source, currency)}, as soon as its start time comes.`;
}
