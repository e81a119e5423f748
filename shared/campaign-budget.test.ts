import { describe, expect, it } from "vitest";
import { activeSpendWarning, budgetExplanation } from "./campaign-budget";
import { MINUS } from "./format";

describe("what the clone's budget is (issue 16, finding 8)", () => {
  const source = { dailyBudget: 250.5, lifetimeBudget: 20_000 };

  it("says the amount entered replaces the daily budget and the lifetime budget is carried over", () => {
    expect(budgetExplanation(1500, "USD", source)).toBe(
      "$1,500.00 per day becomes the clone's daily budget, replacing the source's $250.50 per day. It keeps a lifetime budget of $20,000.00 in total, carried over from the source.",
    );
    expect(budgetExplanation(undefined, "USD", source)).toBe(
      "The clone keeps the source's $250.50 per day and a lifetime budget of $20,000.00 in total.",
    );
    expect(budgetExplanation(1500, "JPY", { dailyBudget: 3000, lifetimeBudget: 0 })).toContain("It keeps no lifetime budget");
    expect(budgetExplanation(1500, "USD")).toContain("the source's lifetime budget (not known before cloning)");
  });

  it("names both budgets in the ACTIVE warning, per day and in total", () => {
    expect(activeSpendWarning(1500, "USD", source)).toBe(
      "An ACTIVE clone starts spending up to $1,500.00 per day, within a lifetime budget of $20,000.00 in total, as soon as its start time comes.",
    );
    expect(activeSpendWarning(undefined, "EUR", source)).toContain("€250.50 per day");
    expect(activeSpendWarning(1500, "USD", source)).not.toContain(MINUS);
  });
});
