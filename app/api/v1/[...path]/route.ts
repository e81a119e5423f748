import { proxyToUpstream } from "@/server/routes/proxy";

export const dynamic = "force-dynamic";

/** Every method lands in the allow-listed proxy, which answers 404 or 405 for what the contract lacks. */
export { proxyToUpstream as GET, proxyToUpstream as POST, proxyToUpstream as DELETE, proxyToUpstream as PUT, proxyToUpstream as PATCH };
