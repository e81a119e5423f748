import "server-only";

/** What is wrong with a text no database column can hold (PostgreSQL refuses NUL in text), if anything. */
export function nulProblem(value: string): string | undefined {
  return value.includes("\u0000") ? "contains a NUL character" : undefined;
}
