import type { IncomingHttpHeaders } from "node:http";

export const CLIENT_ADDRESS_HEADER: "x-dashboard-client-address";
export function clientAddress(forwardedFor: string | undefined, socketAddress: string | undefined, hops: number): string;
export function vouchForClient(headers: IncomingHttpHeaders, socketAddress: string | undefined, hops: number): void;
