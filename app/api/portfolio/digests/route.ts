import { createPortfolioDigest, listPortfolioDigests } from "@/server/routes/portfolio-digests";

export const dynamic = "force-dynamic";
export const GET = listPortfolioDigests;
export const POST = createPortfolioDigest;
