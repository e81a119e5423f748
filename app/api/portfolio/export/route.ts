import { portfolioExport } from "@/server/routes/portfolio";

export const dynamic = "force-dynamic";
export const GET = portfolioExport;
