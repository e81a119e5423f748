import { activityResponse } from "@/lib/actions/activity";

export const dynamic = "force-dynamic";

export const GET = (request: Request) => activityResponse(request);
