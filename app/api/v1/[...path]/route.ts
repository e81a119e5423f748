import { proxyToUpstream } from "@/lib/upstream/proxy";

export const dynamic = "force-dynamic";

/** Every method lands in the allow-listed proxy, which answers 404 or 405 for what the contract lacks. */
const handler = (request: Request) => proxyToUpstream(request);
export { handler as GET, handler as POST, handler as DELETE, handler as PUT, handler as PATCH };
