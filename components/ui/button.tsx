import type { ButtonHTMLAttributes } from "react";

/**
 * A disabled button stays readable (its words keep well over 3:1 against its fill, in both
 * schemes): it turns grey rather than pale, so the reason beside it is not needed to read it.
 */
const DISABLED =
  "disabled:bg-slate-200 disabled:text-slate-700 disabled:hover:bg-slate-200 dark:disabled:bg-slate-800 dark:disabled:text-slate-300 dark:disabled:hover:bg-slate-800";

const variants = {
  primary: `bg-indigo-600 text-white hover:bg-indigo-700 ${DISABLED}`,
  secondary:
    "border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800 disabled:text-slate-600 dark:disabled:text-slate-400",
  danger: `bg-rose-600 text-white hover:bg-rose-700 ${DISABLED}`,
  ghost: "text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800",
};

export function Button({
  variant = "primary",
  className = "",
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: keyof typeof variants }) {
  return (
    <button
      type="button"
      className={`inline-flex items-center justify-center gap-2 rounded-lg px-3.5 py-2 text-sm font-medium transition-colors disabled:cursor-not-allowed ${variants[variant]} ${className}`}
      {...props}
    />
  );
}
