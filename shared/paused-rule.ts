/** Why a rule is paused, in words, when its saved view was deleted (`name` "" when even its name is gone). */
export function deletedViewWords(name: string): string {
  const view = name ? `its saved view “${name}”` : "its saved view";
  return `Paused: ${view} was deleted, so the rule is not checked rather than widened to the whole store.`;
}
