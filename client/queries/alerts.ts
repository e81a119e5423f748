import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { alertRuleListSchema, alertRuleSchema, backtestSchema, checkResultSchema, type AlertRuleInput } from "@/shared/schemas/alert";
import { buildPath } from "@/shared/url";
import { apiFetch } from "./api-client";
import { inboxKeys } from "./notifications";

const alertsPath = (storeUrl: string, ...rest: string[]) => buildPath(["api", "stores", storeUrl, "alerts", ...rest]);

const alertKeys = {
  all: ["alerts"] as const,
  store: (storeUrl: string, organizationId?: string) => [...alertKeys.all, storeUrl, organizationId ?? ""] as const,
};

const alertRulesQueryOptions = (storeUrl: string, organizationId?: string) =>
  queryOptions({
    queryKey: alertKeys.store(storeUrl, organizationId),
    queryFn: ({ signal }) => apiFetch(alertsPath(storeUrl), alertRuleListSchema, { signal, organizationId }),
    staleTime: 10_000,
  });

/** GET /api/stores/{storeUrl}/alerts */
export function useAlertRules(storeUrl: string, organizationId?: string) {
  return useQuery(alertRulesQueryOptions(storeUrl, organizationId));
}

/** GET /api/stores/{storeUrl}/alerts/{id} */
export function useAlertRule(storeUrl: string, id: string, organizationId?: string) {
  return useQuery({
    queryKey: [...alertKeys.store(storeUrl, organizationId), id],
    queryFn: ({ signal }) => apiFetch(alertsPath(storeUrl, id), alertRuleSchema, { signal, organizationId }),
  });
}

/** Create, replace, delete, snooze, mute and "Check now": each refreshes the rules (and the inbox after a check). */
export function useAlertRuleActions(storeUrl: string, organizationId?: string) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: alertKeys.store(storeUrl, organizationId) });
  const options = { organizationId };
  return {
    create: useMutation({
      mutationFn: (input: AlertRuleInput) => apiFetch(alertsPath(storeUrl), alertRuleSchema, { ...options, method: "POST", body: input }),
      onSettled: refresh,
    }),
    update: useMutation({
      mutationFn: ({ id, input }: { id: string; input: AlertRuleInput }) =>
        apiFetch(alertsPath(storeUrl, id), alertRuleSchema, { ...options, method: "PUT", body: input }),
      onSettled: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: string) => apiFetch(alertsPath(storeUrl, id), z.object({ ok: z.boolean() }), { ...options, method: "DELETE" }),
      onSettled: refresh,
    }),
    snooze: useMutation({
      mutationFn: ({ id, minutes }: { id: string; minutes: number }) =>
        apiFetch(alertsPath(storeUrl, id, "snooze"), alertRuleSchema, { ...options, method: "POST", body: { minutes } }),
      onSettled: refresh,
    }),
    mute: useMutation({
      mutationFn: ({ id, muted }: { id: string; muted: boolean }) =>
        apiFetch(alertsPath(storeUrl, id, "mute"), alertRuleSchema, { ...options, method: "POST", body: { muted } }),
      onSettled: refresh,
    }),
    check: useMutation({
      mutationFn: () => apiFetch(alertsPath(storeUrl, "check"), checkResultSchema, { ...options, method: "POST" }),
      onSettled: () => Promise.all([refresh(), queryClient.invalidateQueries({ queryKey: inboxKeys.all })]),
    }),
  };
}

/** POST /api/stores/{storeUrl}/alerts/backtest: the rule on the form, judged over the last 90 days. */
export function useBacktest(storeUrl: string, organizationId?: string) {
  return useMutation({
    mutationFn: (input: AlertRuleInput) =>
      apiFetch(alertsPath(storeUrl, "backtest"), backtestSchema, { organizationId, method: "POST", body: input }),
  });
}
