import { portfolio } from "@/server/routes/portfolio";

export const dynamic = "force-dynamic";
export const GET = portfolio;
