"use client";

import { Component, type ReactNode } from "react";
import { ApiRequestError } from "@/client/queries/api-client";
import { Button } from "./button";
import { SupportReference } from "./error-panel";

interface PanelBoundaryProps {
  /** What the panel shows, as the message names it: "The charts". */
  name: string;
  /** The request whose answer the panel draws, for support. */
  requestId?: string;
  /** Drawing is tried again when this changes (new data). */
  resetKey?: unknown;
  children: ReactNode;
}

interface PanelBoundaryState {
  error: Error | null;
  resetKey: unknown;
}

/**
 * One panel that fails to draw says why, with the request id, and the rest of the page
 * keeps working; without it, one odd value would take the whole page down.
 */
export class PanelBoundary extends Component<PanelBoundaryProps, PanelBoundaryState> {
  state: PanelBoundaryState = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<PanelBoundaryState> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  static getDerivedStateFromProps(props: PanelBoundaryProps, state: PanelBoundaryState): Partial<PanelBoundaryState> | null {
    return Object.is(props.resetKey, state.resetKey) ? null : { error: null, resetKey: props.resetKey };
  }

  render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const requestId = (error instanceof ApiRequestError ? error.requestId : undefined) ?? this.props.requestId;
    return (
      <div
        role="alert"
        data-testid="panel-error"
        className="rounded-lg border border-rose-200 bg-rose-50 p-4 text-rose-950 dark:border-rose-900 dark:bg-rose-950/40 dark:text-rose-100"
      >
        <p className="font-semibold">{this.props.name} could not be drawn</p>
        <p className="mt-1 text-sm">{error.message || "The data has a shape this panel cannot show."}</p>
        <p className="mt-1 text-sm text-rose-800 dark:text-rose-200">
          The rest of the page still works. If this keeps happening, give support the request ID.
        </p>
        {requestId && <SupportReference requestId={requestId} />}
        <Button variant="secondary" className="mt-3" onClick={() => this.setState({ error: null })}>
          Try again
        </Button>
      </div>
    );
  }
}
