import { useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import { buildPath } from "@/shared/url";
import { apiFetch } from "./api-client";

type Method = "POST" | "PUT" | "PATCH" | "DELETE";

/** A resource under /api/stores/{storeUrl}/{name}: its query keys, its list query, and `sender` for its mutation hooks. */
export function storeResource<L extends z.ZodType>(name: string, listSchema: L, staleTime: number) {
  const keys = {
    all: [name] as const,
    store: (storeUrl: string, organizationId?: string) => [name, storeUrl, organizationId ?? ""] as const,
  };
  const path = (storeUrl: string, ...rest: string[]) => buildPath(["api", "stores", storeUrl, name, ...rest]);
  return {
    keys,
    path,
    /** GET /api/stores/{storeUrl}/{name} */
    useList: (storeUrl: string, organizationId?: string) =>
      useQuery({
        queryKey: keys.store(storeUrl, organizationId),
        queryFn: ({ signal }) => apiFetch(path(storeUrl), listSchema, { signal, organizationId }),
        staleTime,
      }),
    sender:
      (storeUrl: string, organizationId?: string) =>
      <S extends z.ZodType>(method: Method, schema: S, rest: string[] = [], body?: unknown) =>
        apiFetch(path(storeUrl, ...rest), schema, { organizationId, method, body }),
  };
}
