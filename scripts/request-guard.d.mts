import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";

export const PROTO_HEADER: string;
export function rawPathProblem(rawUrl: string | undefined): string | null;
export function requestProtocol(headers: IncomingHttpHeaders, encrypted: boolean, hops: number): "http" | "https";
export function refuse(request: IncomingMessage, response: ServerResponse, status: number, message: string): void;
