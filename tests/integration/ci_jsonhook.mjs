// ci_jsonhook.mjs -- node --import this: JSON modules load as JSON even
// where the importing package gives no `with { type: "json" }`.
import { register } from "node:module";

register("data:text/javascript," + encodeURIComponent(`
export async function load(url, context, next) {
  if (url.endsWith(".json"))
    return next(url, { ...context, importAttributes: { ...context.importAttributes, type: "json" } });
  return next(url, context);
}`));
