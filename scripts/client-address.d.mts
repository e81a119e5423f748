export function clientAddress(forwardedFor: string | undefined, socketAddress: string | undefined, hops: number): string;
