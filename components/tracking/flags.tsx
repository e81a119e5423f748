import { Badge } from "@/components/ui/card";

/** A boolean as a word with a colour, so that it reads without colour too; `attention` marks a "yes" to look at. */
export function yesNo(value: boolean, attention = false) {
  return <Badge tone={value ? (attention ? "warn" : "good") : "neutral"}>{value ? "yes" : "no"}</Badge>;
}
