import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { alertRuleListSchema, alertRuleSchema, backtestSchema, checkResultSchema, type AlertRuleInput } from "@/shared/schemas/alert";
import { apiFetch } from "./api-client";
import { inboxKeys } from "./notifications";
import { storeResource } from "./store-resource";

const alerts = storeResource("alerts", alertRuleListSchema, 10_000);

/** GET /api/stores/{storeUrl}/alerts */
export const useAlertRules = alerts.useList;

/** GET /api/stores/{storeUrl}/alerts/{id} */
export function useAlertRule(storeUrl: string, id: string, organizationId?: string) {
  return useQuery({
    queryKey: [...alerts.keys.store(storeUrl, organizationId), id],
    queryFn: ({ signal }) => apiFetch(alerts.path(storeUrl, id), alertRuleSchema, { signal, organizationId }),
  });
}

/** Create, replace, delete, snooze, mute and "Check now": each refreshes the rules (and the inbox after a check). */
export function useAlertRuleActions(storeUrl: string, organizationId?: string) {
  const queryClient = useQueryClient();
  const onSettled = () => queryClient.invalidateQueries({ queryKey: alerts.keys.store(storeUrl, organizationId) });
  const send = alerts.sender(storeUrl, organizationId);
  return {
    create: useMutation({ mutationFn: (input: AlertRuleInput) => send("POST", alertRuleSchema, [], input), onSettled }),
    update: useMutation({
      mutationFn: ({ id, input }: { id: string; input: AlertRuleInput }) => send("PUT", alertRuleSchema, [id], input),
      onSettled,
    }),
    remove: useMutation({ mutationFn: (id: string) => send("DELETE", z.object({ ok: z.boolean() }), [id]), onSettled }),
    snooze: useMutation({
      mutationFn: ({ id, minutes }: { id: string; minutes: number }) => send("POST", alertRuleSchema, [id, "snooze"], { minutes }),
      onSettled,
    }),
    mute: useMutation({
      mutationFn: ({ id, muted }: { id: string; muted: boolean }) => send("POST", alertRuleSchema, [id, "mute"], { muted }),
      onSettled,
    }),
    check: useMutation({
      mutationFn: () => send("POST", checkResultSchema, ["check"]),
      onSettled: () => Promise.all([onSettled(), queryClient.invalidateQueries({ queryKey: inboxKeys.all })]),
    }),
  };
}

/** POST /api/stores/{storeUrl}/alerts/backtest: the rule on the form, judged over the last 90 days. */
export function useBacktest(storeUrl: string, organizationId?: string) {
  return useMutation({
    mutationFn: (input: AlertRuleInput) => alerts.sender(storeUrl, organizationId)("POST", backtestSchema, ["backtest"], input),
  });
}
